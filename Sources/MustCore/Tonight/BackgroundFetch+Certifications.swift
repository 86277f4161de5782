import Foundation

extension BackgroundFetch {
    /// The region's certification list (GET /certification/movie/list), after the ratings: asked only when it is
    /// due (`CertificationRefresh`: never read, or 30 days old), so a family that only uses the page has the
    /// age-limit choice after its first fetch, and a fetch that does not need it spends no request on it. Not
    /// after a run TMDB refused, failed or asked to slow down: the next run asks. A failure is logged and asked
    /// again at the next run; it never changes the run's result.
    func refreshCertifications(after report: FetchReport) async {
        let summary = report.summary
        guard !summary.unauthorized, summary.unavailable == 0, summary.retryAfter == nil else { return }
        await refreshCertificationsIfDue()
    }

    /// The list when it is due, whether or not ratings were: one store read when it is not.
    func refreshCertificationsIfDue() async {
        let (store, logger, region, now) = (runner.store, runner.logger, runner.settings.region, scheduler.now())
        let due: Bool = await BlockingWork.run {
            do {
                return CertificationRefresh.isDue(
                    checkedAt: try store.certificationsCheckedAt(region: region), now: now)
            } catch {
                logger.warning("could not read when the certifications were last asked: \(error)")
                return false
            }
        }
        guard due else { return }
        let list: [RegionCertification]
        do {
            list = try await runner.client.certifications(region: region)
        } catch {
            logger.warning("could not read TMDB's certifications for \(region); the next fetch asks again: \(error)")
            return
        }
        await BlockingWork.run {
            do {
                try store.keepCertificationOrder(list, region: region, now: now)
                logger.debug("certifications kept", metadata: ["region": "\(region)", "count": "\(list.count)"])
            } catch {
                logger.warning("could not keep the certifications for \(region): \(error)")
            }
        }
    }
}
