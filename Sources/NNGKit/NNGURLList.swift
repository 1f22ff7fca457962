/// A flag's list of nng URLs: several peers of one role (static replicas; a realtime service and its standby),
/// separated by commas. Spaces around them are dropped, empty entries ignored.
public enum NNGURLList {
    public static func split(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.filter { $0 != " " } }.filter { !$0.isEmpty }
    }
}
