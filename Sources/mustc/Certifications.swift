import Foundation
import MustCore

/// The family region's certifications in TMDB's order: kept in the database, asked of TMDB once when missing.
enum Certifications {
    static func order(_ global: GlobalOptions, _ config: Config) async throws -> [RegionCertification] {
        let region = config.family.region
        let kept = try global.openStoreForReading(config).certificationOrder(region: region)
        if !kept.isEmpty { return kept }
        guard let client = global.lookupClient(config) else {
            throw Failure.config(
                "the order of \(region)'s certifications comes from TMDB once, and no TMDB credentials are set; "
                    + "set TMDB_API_KEY or tmdb.apiKey")
        }
        let list: [RegionCertification]
        do {
            list = try await client.certifications(region: region)
        } catch TMDBError.unauthorized(let code, let message) {
            throw Failure.config("\(TMDBError.unauthorized(code: code, message: message))")
        } catch let error as TMDBError {
            throw Failure.temporary("could not read TMDB's certifications for \(region): \(error); try again later")
        }
        guard !list.isEmpty else {
            throw Failure.config(
                "TMDB lists no movie certifications for family.region \(region); age limits need a region that has them"
            )
        }
        try global.openStore(config).keepCertificationOrder(list, region: region, now: global.time.now())
        return list
    }

    /// The certification as the region's list writes it; exit 64 listing the list when it has no such one.
    static func checked(_ asked: String, in list: [RegionCertification], region: String, option: String) throws
        -> String
    {
        let key = asked.trimmingCharacters(in: .whitespaces).uppercased()
        if let found = list.first(where: { $0.certification.uppercased() == key }) { return found.certification }
        let names = list.map(\.certification).joined(separator: ", ")
        throw Failure.usage(
            "\(option) \(asked.debugDescription) is no certification of \(region) (family.region); use one of \(names)")
    }
}
