/// Place and street names for generated stops, so names look like Transport for NSW's and search
/// benchmarks meet realistic tokens ("Parramatta Station, Platform 3", "Victoria Rd opp Church St").
enum NameBank {
    /// The city's busiest interchanges, with approximate positions (millionths of a degree).
    static let majorHubs: [(name: String, lat: Int, lon: Int)] = [
        ("Central", -33_883_240, 151_206_290), ("Town Hall", -33_873_310, 151_206_700),
        ("Wynyard", -33_865_770, 151_205_800), ("Circular Quay", -33_861_220, 151_210_810),
        ("Martin Place", -33_867_730, 151_211_260), ("Museum", -33_876_440, 151_209_630),
        ("Parramatta", -33_817_410, 151_005_440), ("Chatswood", -33_796_930, 151_180_400),
        ("Strathfield", -33_871_510, 151_094_170), ("Bondi Junction", -33_891_340, 151_247_430),
        ("Hurstville", -33_967_540, 151_102_140), ("Liverpool", -33_924_000, 150_926_000),
        ("Blacktown", -33_769_190, 150_906_320), ("Penrith", -33_750_000, 150_694_200),
        ("Hornsby", -33_702_400, 151_099_430), ("Epping", -33_772_700, 151_081_900),
        ("Burwood", -33_877_020, 151_103_540), ("Bankstown", -33_917_000, 151_034_000),
        ("Campbelltown", -34_063_300, 150_817_100), ("Sutherland", -34_031_310, 151_057_720),
        ("Macquarie Park", -33_776_000, 151_124_000), ("Redfern", -33_891_710, 151_198_560),
        ("North Sydney", -33_840_430, 151_207_340), ("Castle Hill", -33_731_700, 151_004_600),
        ("Wolli Creek", -33_928_330, 151_153_010), ("Manly", -33_797_000, 151_285_000),
        ("Dee Why", -33_752_000, 151_287_000), ("Rockdale", -33_952_500, 151_137_600),
        ("Fairfield", -33_872_000, 150_956_000), ("Mount Druitt", -33_769_000, 150_820_000),
    ]

    static let suburbs: [String] = [
        "Abbotsford", "Annandale", "Arncliffe", "Artarmon", "Ashfield", "Auburn", "Balmain", "Bankstown",
        "Bardwell Park", "Baulkham Hills", "Beecroft", "Belmore", "Berala", "Beverly Hills", "Bexley",
        "Birrong", "Blakehurst", "Bondi", "Botany", "Brighton-Le-Sands", "Bronte", "Brookvale", "Burwood",
        "Cabramatta", "Camperdown", "Canley Vale", "Canterbury", "Caringbah", "Carlingford", "Carlton",
        "Castle Cove", "Chester Hill", "Chippendale", "Clovelly", "Collaroy", "Concord", "Coogee",
        "Cremorne", "Cronulla", "Croydon", "Darlinghurst", "Denistone", "Dulwich Hill", "Earlwood",
        "Eastwood", "Edgecliff", "Enfield", "Engadine", "Enmore", "Erskineville", "Fairlight",
        "Five Dock", "Forestville", "Freshwater", "Glebe", "Gladesville", "Gordon", "Granville",
        "Greenacre", "Greenwich", "Guildford", "Gymea", "Haberfield", "Harris Park", "Homebush",
        "Hunters Hill", "Hurlstone Park", "Kensington", "Killara", "Kingsford", "Kirrawee", "Kogarah",
        "Lakemba", "Lane Cove", "Leichhardt", "Lewisham", "Lidcombe", "Lilyfield", "Lindfield",
        "Marrickville", "Maroubra", "Marsfield", "Mascot", "Meadowbank", "Merrylands", "Miranda",
        "Mona Vale", "Mortdale", "Mosman", "Narrabeen", "Narwee", "Neutral Bay", "Newtown",
        "North Ryde", "Oatley", "Padstow", "Paddington", "Panania", "Peakhurst", "Pennant Hills",
        "Petersham", "Pymble", "Punchbowl", "Randwick", "Revesby", "Rhodes", "Riverwood", "Rose Bay",
        "Roseville", "Rozelle", "Ryde", "St Leonards", "St Peters", "Seaforth", "Sefton", "Stanmore",
        "Summer Hill", "Surry Hills", "Sydenham", "Tempe", "Thornleigh", "Toongabbie", "Turramurra",
        "Ultimo", "Vaucluse", "Villawood", "Wahroonga", "Waitara", "Warrawee", "Waterloo", "Waverley",
        "Wentworthville", "West Ryde", "Westmead", "Wiley Park", "Willoughby", "Woollahra", "Woolloomooloo",
        "Yagoona", "Yennora", "Alexandria", "Beaconsfield", "Rosebery", "Eastlakes", "Matraville",
        "Malabar", "La Perouse", "Little Bay", "Hillsdale", "Banksmeadow", "Kurnell", "Bundeena",
        "Heathcote", "Waterfall", "Helensburgh", "Appin", "Picton", "Camden", "Narellan", "Oran Park",
        "Leppington", "Edmondson Park", "Glenfield", "Macquarie Fields", "Ingleburn", "Minto", "Leumeah",
        "Menangle", "Douglas Park", "Wollondilly", "Austral", "Kemps Creek", "Badgerys Creek",
        "St Marys", "Kingswood", "Werrington", "Emu Plains", "Glenbrook", "Blaxland", "Springwood",
        "Katoomba", "Richmond", "Windsor", "Mulgrave", "Vineyard", "Riverstone", "Schofields",
        "Quakers Hill", "Marayong", "Seven Hills", "Pendle Hill", "Rouse Hill", "Kellyville",
        "Bella Vista", "Norwest", "Cherrybrook", "Dural", "Galston", "Berowra", "Asquith", "Mount Colah",
        "Brooklyn", "Gosford", "Woy Woy", "Tuggerah", "Wyong", "Newcastle", "Maitland", "Wollongong",
        "Kiama", "Bowral", "Moss Vale", "Goulburn", "Bathurst", "Orange", "Dubbo", "Tamworth", "Armidale",
    ]

    static let streets: [String] = [
        "George", "Pitt", "Elizabeth", "Castlereagh", "Macquarie", "Kent", "Sussex", "Clarence", "York",
        "King", "Market", "Park", "Bathurst", "Liverpool", "Goulburn", "Oxford", "Crown", "Bourke",
        "Victoria", "Albert", "Church", "High", "Railway", "Station", "Forest", "Canterbury", "Stoney Creek",
        "Botany", "Anzac", "Alison", "Avoca", "Belmore", "Carrington", "Coogee Bay", "Military", "Spit",
        "Pacific", "Mona Vale", "Pittwater", "Wakehurst", "Warringah", "Epping", "Lane Cove", "Pennant Hills",
        "Windsor", "Old Northern", "Showground", "Norwest", "Old Windsor", "Great Western", "Parramatta",
        "Woodville", "Hume", "Cumberland", "Hawkesbury", "Richmond", "Elizabeth Drive", "Camden Valley",
        "Narellan", "Appin", "Princes", "Rocky Point", "President", "Kingsway", "Port Hacking", "Forest",
        "King Georges", "Bexley", "Stoney", "Wollongong", "Belgrave", "Marion", "Norton", "Ramsay",
        "Wattle", "Bay", "Ocean", "Beach", "Campbell", "Bondi", "Curlewis", "Hall", "O'Brien", "Birriga",
        "Blair", "Murriverie", "Dover", "Old South Head", "New South Head", "Ocean Street", "Edgecliff",
        "Glenmore", "Cleveland", "Regent", "Abercrombie", "Broadway", "Missenden", "Enmore", "King Street",
        "Illawarra", "Marrickville", "Addison", "Livingstone", "Wardell", "Dulwich", "Lilyfield", "Darling",
        "Victoria Road", "Lyons", "Great North", "Lyons Road", "Concord", "Majors Bay", "Queen", "Blaxland",
        "Rawson", "Burwood", "Liverpool Road", "Georges River", "Hill", "Rookwood", "Joseph", "Olympic",
        "Silverwater", "Carlingford", "Marsden", "Blaxland Road", "Herring", "Waterloo", "Talavera",
        "Delhi", "Khartoum", "Culloden", "Balaclava", "Ryedale", "Shaftsbury", "Rowe", "Terry",
    ]

    static let streetSuffixes: [String] = ["St", "St", "Rd", "Rd", "Ave", "Pde", "Hwy", "Dr", "Cres", "Pl", "Way"]

    /// How a bus stop sits relative to its cross street, as Transport for NSW names them.
    static let relations: [String] = ["opp", "after", "before", "at", "near"]

    static let variants: [String] = ["", " North", " West", " South", " East", " Heights", " Park", " Vale"]

    /// The n-th distinct place name: the suburbs first, then suburbs with a variant ("Ryde North").
    static func place(_ n: Int) -> String {
        let base = suburbs[n % suburbs.count]
        let variant = variants[(n / suburbs.count) % variants.count]
        let round = n / (suburbs.count * variants.count)
        return round == 0 ? base + variant : base + variant + " \(round + 1)"
    }

    static func street(_ rng: inout SplitMix64) -> String {
        let name = streets[rng.below(streets.count)]
        if name.hasSuffix("Road") || name.hasSuffix("Street") || name.hasSuffix("Drive") { return name }
        return name + " " + streetSuffixes[rng.below(streetSuffixes.count)]
    }
}
