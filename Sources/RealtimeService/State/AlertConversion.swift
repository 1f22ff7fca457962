import GTFSRealtime
import TransitModel

enum AlertConversion {
    /// The Live value of an alert. Agency, route and trip ids get the source's prefix; stop ids do not.
    static func liveAlert(_ a: Alert, entityId: String, settings: SourceSettings) -> LiveAlert {
        let prefix = settings.idPrefix
        var entities: [LiveInformedEntity] = []
        entities.reserveCapacity(a.informedEntities.count)
        for e in a.informedEntities {
            entities.append(
                LiveInformedEntity(
                    agencyId: e.agencyId.map { prefix + $0 },
                    routeId: (e.routeId ?? e.trip?.routeId).map { prefix + $0 },
                    routeType: e.routeType, directionId: e.directionId ?? e.trip?.directionId,
                    tripId: e.trip?.tripId.map { prefix + $0 }, tripStartDate: e.trip?.startDate,
                    tripStartTime: e.trip?.startTime, stopId: e.stopId))
        }
        return LiveAlert(
            key: settings.name + "/" + entityId, source: settings.name, entityId: entityId,
            activePeriods: a.activePeriods.map(period), communicationPeriods: a.communicationPeriods.map(period),
            impactPeriods: a.impactPeriods.map(period), informedEntities: entities,
            cause: (a.cause ?? .unknownCause).name, effect: (a.effect ?? .unknownEffect).name,
            severity: (a.severityLevel ?? .unknownSeverity).name, headerText: a.headerText,
            descriptionText: a.descriptionText, url: a.url, ttsHeaderText: a.ttsHeaderText,
            ttsDescriptionText: a.ttsDescriptionText, causeDetail: a.causeDetail, effectDetail: a.effectDetail,
            image: a.image, imageAlternativeText: a.imageAlternativeText)
    }

    private static func period(_ r: TimeRange) -> LivePeriod { LivePeriod(start: r.start, end: r.end) }
}
