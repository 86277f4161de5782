import Foundation

extension BackgroundFetch {
    /// The suggestion work, only after a run that did all its rating work: a run that skipped movies for want of
    /// time, or that TMDB refused or failed, leaves suggestions for the next run, so they never take the ratings'
    /// time or requests.
    func suggest(after report: FetchReport) async {
        guard let suggestions else { return }
        let summary = report.summary
        guard summary.skipped == 0, !summary.unauthorized, summary.unavailable == 0, summary.retryAfter == nil,
            summary.storeFailure == nil
        else {
            runner.logger.debug("suggestions left for the next run: this one did not finish its ratings cleanly")
            return
        }
        let tally = await suggestions.run(time: scheduler.time, ownRequests: report.requests)
        if tally != SuggestionWork.Tally() {
            runner.logger.info(
                "suggestions: \(tally.recommendations) recommendation lists, \(tally.details) details, \(tally.failed) failed"
            )
        }
    }
}
