import Foundation
import Testing

@testable import MustCore

/// Each report type's JSON, written out as it was before the shapes were declared by attributes: every key, null
/// for an unknown figure, keys left out where they were left out, rounding, and what is flattened or merged.
@Suite struct ReportShapesTests {
    static let at = Date(timeIntervalSince1970: 1_795_000_000)

    static let offers = [
        ProviderOffer(kind: .flatrate, id: 8, name: "Netflix"), ProviderOffer(kind: .rent, id: 2, name: "Apple TV"),
        ProviderOffer(kind: .flatrate, id: 9, name: "Prime Video"),
    ]

    static var picks: PickReport {
        var known = NightCandidate(
            movieId: 1, title: "Amélie", year: 2001, remoteId: 194, voteAverage: 7.9, voteCount: 11_412, trend: 0.05,
            keptBy: ["Ann", "Bo"], watchedBy: ["Bo"])
        (known.runtime, known.genres, known.certification) = (122, ["Comedy", "Romance"], "12")
        (known.providers, known.overview, known.posterPath) = (offers, "A girl in Paris.", "/a.jpg")
        let full = NightPick(
            candidate: known, weighted: 7.123_456_789, why: "Amélie (2001): kept by Ann and Bo",
            predicted: 7.333_333_33, taste: ["Ann rates comedy higher than usual (6 films, +1.0)"],
            whereToWatch: NightWhere(kind: .ours, providers: ["Netflix"], region: "GB"))
        let bare = NightPick(
            candidate: NightCandidate(movieId: 2, title: "Unknown", keptBy: ["Ann"]), weighted: nil, why: "Unknown",
            predicted: nil)
        var report = PickReport(
            members: ["Ann", "Bo"], picks: [full, bare], prior: NightPrior(mean: 6.5, votes: 100, movies: 3))
        report.filtered = true
        return report
    }

    static var suggestions: SuggestReport {
        var known = SuggestionCandidate(
            remoteId: 14160, title: "Up", year: 2009, voteAverage: 7.95, voteCount: 20_000, genres: ["Animation"],
            detailsKnown: true, seeds: [1])
        (known.runtime, known.certification, known.providers) = (96, "PG", offers)
        (known.overview, known.posterPath) = ("A house flies.", "/up.jpg")
        let full = Suggestion(
            candidate: known, score: 1.5, weighted: 7.876_543_21,
            because: [
                SuggestionSeed(
                    member: "Ann", movieId: 1, remoteId: 12, title: "Coco", year: 2017, ownRating: 9, love: 9),
                SuggestionSeed(
                    member: "Bo", movieId: 2, remoteId: 13, title: "Old", year: nil, ownRating: nil, love: 8.1),
            ],
            why: "Up (2009): because Ann loved Coco", taste: ["Bo rates animation higher than usual (5 films, +0.5)"])
        let bare = Suggestion(
            candidate: SuggestionCandidate(remoteId: 15, title: "Blank"), score: 0.1, weighted: nil, because: [],
            why: "Blank")
        var report = SuggestReport(
            SuggestionLibrary(members: ["Ann", "Bo"], seeds: [], candidates: [], prior: nil), count: 5)
        report.suggestions = [full, bare]
        return report
    }

    static var nights: [MovieNightRecord] {
        [
            MovieNightRecord(
                id: 7, day: WatchDay.parse("2026-11-20")!,
                movie: MovieName(id: 1, title: "Dune", year: 1984, remoteId: 841),
                watchers: [NightWatcher(name: "Ann", rating: 9), NightWatcher(name: "Bo", rating: nil)],
                posterPath: "/d.jpg"),
            MovieNightRecord(
                id: 8, day: WatchDay.parse("2026-11-21")!,
                movie: MovieName(id: 2, title: "Home movie", year: nil, remoteId: nil),
                watchers: [NightWatcher(name: "Ann", rating: nil)], posterPath: nil),
        ]
    }

    static var listings: [MovieListing] {
        [
            MovieListing(
                title: "Dune", year: 1984, remoteId: 841, releaseDate: "1984-12-14", members: ["Ann"],
                lastCheckedAt: at, nextCheckAt: at.addingTimeInterval(3600), mark: nil),
            MovieListing(
                title: "Bare", year: nil, remoteId: nil, releaseDate: nil, members: [], lastCheckedAt: nil,
                nextCheckAt: nil, mark: WatchMark(watched: true)),
            MovieListing(
                title: "Rated", year: 2000, remoteId: 1, releaseDate: nil, members: ["Bo"], lastCheckedAt: nil,
                nextCheckAt: nil, mark: WatchMark(watched: true, on: WatchDay.parse("2026-01-02"), rating: 8)),
        ]
    }

    static var ratings: RatingsReport {
        var full = MovieRating(
            title: "Amélie", year: 2001, remoteId: 194, popularity: 7.248, voteAverage: 7.9, voteCount: 11_412,
            updatedAt: at)
        full.trend = MovieTrend(since: at.addingTimeInterval(-86_400), popularity: 0.5, voteAverage: nil, voteCount: 3)
        full.mark = WatchMark(watched: true, on: WatchDay.parse("2026-03-01"), rating: 9)
        (full.localId, full.posterPath, full.trendPopularity) = (4, "/a.jpg", [1, nil, 2])
        return RatingsReport(members: [
            MemberRatings(name: "Ann", movies: [full, MovieRating(title: "Not fetched")]),
            MemberRatings(name: "Nobody", movies: []),
        ])
    }

    static var changes: ChangesReport {
        let rating = MovieChanges(
            title: "Dune", year: nil, remoteId: 841, changes: 2,
            first: DatedFigures(at: at.addingTimeInterval(-600), figures: Figures()),
            last: DatedFigures(at: at, figures: Figures(popularity: 1.5, voteAverage: 7, voteCount: 10)),
            members: ["Ann"], popularity: [nil, 1.5])
        let older = MovieChanges(
            title: "Old", year: 1950, remoteId: nil, changes: 1,
            first: DatedFigures(at: at.addingTimeInterval(-9000), figures: Figures(popularity: 2)),
            last: DatedFigures(at: at.addingTimeInterval(-8000), figures: Figures(popularity: 3)),
            members: [], popularity: [2, 3])
        let arrived = AvailabilityChange(
            title: "Up", year: 2009, remoteId: 14160, at: at.addingTimeInterval(60), providerId: 8,
            provider: "Netflix", arrived: true, members: ["Ann"])
        let left = AvailabilityChange(
            title: "Bare", year: nil, remoteId: nil, at: at.addingTimeInterval(-5000), providerId: 9,
            provider: "Prime Video", arrived: false, members: [])
        let last = AvailabilityChange(
            title: "Last", year: nil, remoteId: 3, at: at.addingTimeInterval(-10_000), providerId: 9,
            provider: "Prime Video", arrived: true, members: ["Bo"])
        return ChangesReport(
            since: at.addingTimeInterval(-86_400), changes: [rating, older],
            availability: [
                arrived, left, last,
            ])
    }

    static var fetches: [FetchRunReport] {
        let idle = FetchRunReport(.alreadyRunning(nil), lastInterval: nil, now: at)
        var ran = idle
        (ran.result, ran.movies, ran.changed, ran.unchanged, ran.failed, ran.skipped) = ("newData", 9, 3, 4, 1, 1)
        (ran.availability, ran.requests, ran.elapsed, ran.due, ran.total) = (2, 12, 1.234, 9, 40)
        (ran.nextFetchAt, ran.interval, ran.failure) = (at.addingTimeInterval(3600), 3599.6, "timed out")
        (ran.posters.downloaded, ran.posters.failed, ran.posters.malformed, ran.posters.removed) = (3, 1, 2, 4)
        return [idle, ran]
    }

    static var status: StatusReport {
        let finished = FetchRunRecord(
            id: 2, startedAt: at, endedAt: at.addingTimeInterval(5), result: "newData", movies: 9, changed: 3,
            unchanged: 5, failed: 1, skipped: 0, requests: 11, interval: 1799.6,
            nextFetchAt: at.addingTimeInterval(1800), failure: "HTTP 500")
        let running = FetchRunRecord(
            id: 3, startedAt: at.addingTimeInterval(10), endedAt: nil, result: nil, movies: 0, changed: 0,
            unchanged: 0, failed: 0, skipped: 0, requests: 0, interval: nil, nextFetchAt: nil, failure: nil)
        var report = StatusReport(
            schedule: nil, runs: [running, finished], failing: [], unresolved: ["Mystery"],
            checks: CheckCounts(total: 3, dueNow: 1, dueWithinHour: 2, dueWithinDay: 3, nextCheckAt: nil), now: at)
        (report.nextFetchAt, report.lastResult) = (at.addingTimeInterval(1800), .newData)
        report.hook = HookRecord(
            runId: 2, startedAt: at, elapsed: 0.123_456, program: "notify-send", changes: 2, outcome: .failed,
            exitStatus: nil, stderrTail: "no display")
        report.mediaServers = MediaEventStatus(
            last: [
                MediaEventRecord(
                    server: "plex", receivedAt: at, user: "ann", member: "Ann", movie: "Dune (1984)",
                    outcome: "marked watched")
            ],
            unknownUsers: [
                MediaEventRecord(
                    server: "jellyfin", receivedAt: at, user: "guest", member: nil, movie: "Up", outcome: "ignored")
            ])
        report.notify = [
            NotifyDestinationStatus(
                name: "ntfy", lastSuccessAt: at, lastFailureAt: nil, lastFailure: nil, configProblem: false,
                waiting: 0, dropped: 0, lastDroppedAt: nil),
            NotifyDestinationStatus(
                name: "gotify", lastSuccessAt: nil, lastFailureAt: at, lastFailure: "403 refused", configProblem: true,
                waiting: 2, dropped: 1, lastDroppedAt: at),
        ]
        return report
    }

    /// The page's status (no program, no output) with a hook that was killed, and with no hook at all.
    static var pageStatuses: [StatusReport] {
        var killed = status
        killed.hook?.exitStatus = -9
        var none = status
        (none.hook, none.runs, none.notify, none.mediaServers) = (nil, [], [], MediaEventStatus())
        return [killed.forPage, none.forPage]
    }

    static var webhookBodies: [String] {
        let webhook = NotifyDestination(service: .webhook, url: URL(string: "https://home.example/hook")!)
        return [
            NotifyMessage(title: "2 new", body: "Dune\nUp", click: "https://mustc.example/", items: 2),
            NotifyMessage(title: "1 new", body: "Dune", click: nil, items: 1),
        ].map { String(decoding: webhook.request($0, timeout: 5).body ?? Data(), as: UTF8.self) }
    }

    @Test func picksFlattenTheCandidateRoundToFourDecimalsAndWriteNulls() {
        #expect(
            ReportRenderer.json(Self.picks) == #"""
                {
                  "leftOut" : {
                    "aboveAgeLimit" : 0,
                    "movies" : 0,
                    "noCertification" : 0,
                    "notOnServices" : 0,
                    "otherGenres" : 0,
                    "tooLong" : 0,
                    "unknownRuntime" : 0
                  },
                  "members" : [
                    "Ann",
                    "Bo"
                  ],
                  "picks" : [
                    {
                      "certification" : "12",
                      "genres" : [
                        "Comedy",
                        "Romance"
                      ],
                      "keptBy" : [
                        "Ann",
                        "Bo"
                      ],
                      "overview" : "A girl in Paris.",
                      "predicted" : 7.3333,
                      "providers" : {
                        "flatrate" : [
                          "Netflix",
                          "Prime Video"
                        ],
                        "rent" : [
                          "Apple TV"
                        ]
                      },
                      "remoteId" : 194,
                      "runtime" : 122,
                      "taste" : [
                        "Ann rates comedy higher than usual (6 films, +1.0)"
                      ],
                      "title" : "Amélie",
                      "trend" : 0.05,
                      "voteAverage" : 7.9,
                      "voteCount" : 11412,
                      "weighted" : 7.1235,
                      "where" : {
                        "kind" : "ours",
                        "providers" : [
                          "Netflix"
                        ],
                        "region" : "GB"
                      },
                      "why" : "Amélie (2001): kept by Ann and Bo",
                      "year" : 2001
                    },
                    {
                      "certification" : null,
                      "genres" : [

                      ],
                      "keptBy" : [
                        "Ann"
                      ],
                      "overview" : null,
                      "predicted" : null,
                      "providers" : null,
                      "remoteId" : null,
                      "runtime" : null,
                      "taste" : [

                      ],
                      "title" : "Unknown",
                      "trend" : null,
                      "voteAverage" : null,
                      "voteCount" : null,
                      "weighted" : null,
                      "where" : null,
                      "why" : "Unknown",
                      "year" : null
                    }
                  ]
                }
                """#)
    }

    @Test func suggestionsFlattenTheCandidateAndTheirSeeds() {
        #expect(
            ReportRenderer.json(Self.suggestions) == #"""
                {
                  "members" : [
                    "Ann",
                    "Bo"
                  ],
                  "suggestions" : [
                    {
                      "because" : [
                        {
                          "member" : "Ann",
                          "ownRating" : 9,
                          "title" : "Coco",
                          "year" : 2017
                        },
                        {
                          "member" : "Bo",
                          "ownRating" : null,
                          "title" : "Old",
                          "year" : null
                        }
                      ],
                      "certification" : "PG",
                      "genres" : [
                        "Animation"
                      ],
                      "overview" : "A house flies.",
                      "providers" : {
                        "flatrate" : [
                          "Netflix",
                          "Prime Video"
                        ],
                        "rent" : [
                          "Apple TV"
                        ]
                      },
                      "remoteId" : 14160,
                      "runtime" : 96,
                      "taste" : [
                        "Bo rates animation higher than usual (5 films, +0.5)"
                      ],
                      "title" : "Up",
                      "voteAverage" : 7.95,
                      "voteCount" : 20000,
                      "weighted" : 7.8765,
                      "why" : "Up (2009): because Ann loved Coco",
                      "year" : 2009
                    },
                    {
                      "because" : [

                      ],
                      "certification" : null,
                      "genres" : [

                      ],
                      "overview" : null,
                      "providers" : null,
                      "remoteId" : 15,
                      "runtime" : null,
                      "taste" : [

                      ],
                      "title" : "Blank",
                      "voteAverage" : null,
                      "voteCount" : null,
                      "weighted" : null,
                      "why" : "Blank",
                      "year" : null
                    }
                  ]
                }
                """#)
    }

    @Test func nightsFlattenTheirMovie() {
        #expect(
            ReportRenderer.json(Self.nights) == #"""
                [
                  {
                    "day" : "2026-11-20",
                    "id" : 7,
                    "remoteId" : 841,
                    "title" : "Dune",
                    "watchers" : [
                      {
                        "name" : "Ann",
                        "rating" : 9
                      },
                      {
                        "name" : "Bo"
                      }
                    ],
                    "year" : 1984
                  },
                  {
                    "day" : "2026-11-21",
                    "id" : 8,
                    "remoteId" : null,
                    "title" : "Home movie",
                    "watchers" : [
                      {
                        "name" : "Ann"
                      }
                    ],
                    "year" : null
                  }
                ]
                """#)
    }

    @Test func listingsCarryTheMarkOnlyWhenThereIsOne() {
        #expect(
            ReportRenderer.json(Self.listings) == #"""
                [
                  {
                    "lastCheckedAt" : "2026-11-18T11:06:40Z",
                    "members" : [
                      "Ann"
                    ],
                    "nextCheckAt" : "2026-11-18T12:06:40Z",
                    "releaseDate" : "1984-12-14",
                    "remoteId" : 841,
                    "title" : "Dune",
                    "year" : 1984
                  },
                  {
                    "lastCheckedAt" : null,
                    "members" : [

                    ],
                    "nextCheckAt" : null,
                    "ownRating" : null,
                    "releaseDate" : null,
                    "remoteId" : null,
                    "title" : "Bare",
                    "watched" : true,
                    "watchedOn" : null,
                    "year" : null
                  },
                  {
                    "lastCheckedAt" : null,
                    "members" : [
                      "Bo"
                    ],
                    "nextCheckAt" : null,
                    "ownRating" : 8,
                    "releaseDate" : null,
                    "remoteId" : 1,
                    "title" : "Rated",
                    "watched" : true,
                    "watchedOn" : "2026-01-02",
                    "year" : 2000
                  }
                ]
                """#)
    }

    @Test func ratingsFlattenTheMark() {
        #expect(
            ReportRenderer.json(Self.ratings) == #"""
                {
                  "members" : [
                    {
                      "movies" : [
                        {
                          "ownRating" : 9,
                          "popularity" : 7.248,
                          "remoteId" : 194,
                          "title" : "Amélie",
                          "trend" : {
                            "popularity" : 0.5,
                            "since" : "2026-11-17T11:06:40Z",
                            "voteAverage" : null,
                            "voteCount" : 3
                          },
                          "updatedAt" : "2026-11-18T11:06:40Z",
                          "voteAverage" : 7.9,
                          "voteCount" : 11412,
                          "watched" : true,
                          "watchedOn" : "2026-03-01",
                          "year" : 2001
                        },
                        {
                          "ownRating" : null,
                          "popularity" : null,
                          "remoteId" : null,
                          "title" : "Not fetched",
                          "trend" : null,
                          "updatedAt" : null,
                          "voteAverage" : null,
                          "voteCount" : null,
                          "watched" : false,
                          "watchedOn" : null,
                          "year" : null
                        }
                      ],
                      "name" : "Ann"
                    },
                    {
                      "movies" : [

                      ],
                      "name" : "Nobody"
                    }
                  ]
                }
                """#)
    }

    @Test func changesMergeAvailabilityNewestFirst() {
        #expect(
            ReportRenderer.json(Self.changes) == #"""
                {
                  "changes" : [
                    {
                      "at" : "2026-11-18T11:07:40Z",
                      "change" : "arrived",
                      "kind" : "availability",
                      "members" : [
                        "Ann"
                      ],
                      "provider" : "Netflix",
                      "providerId" : 8,
                      "remoteId" : 14160,
                      "title" : "Up",
                      "year" : 2009
                    },
                    {
                      "changes" : 2,
                      "first" : {
                        "at" : "2026-11-18T10:56:40Z",
                        "popularity" : null,
                        "voteAverage" : null,
                        "voteCount" : null
                      },
                      "last" : {
                        "at" : "2026-11-18T11:06:40Z",
                        "popularity" : 1.5,
                        "voteAverage" : 7,
                        "voteCount" : 10
                      },
                      "members" : [
                        "Ann"
                      ],
                      "remoteId" : 841,
                      "title" : "Dune",
                      "year" : null
                    },
                    {
                      "at" : "2026-11-18T09:43:20Z",
                      "change" : "left",
                      "kind" : "availability",
                      "members" : [

                      ],
                      "provider" : "Prime Video",
                      "providerId" : 9,
                      "remoteId" : null,
                      "title" : "Bare",
                      "year" : null
                    },
                    {
                      "changes" : 1,
                      "first" : {
                        "at" : "2026-11-18T08:36:40Z",
                        "popularity" : 2,
                        "voteAverage" : null,
                        "voteCount" : null
                      },
                      "last" : {
                        "at" : "2026-11-18T08:53:20Z",
                        "popularity" : 3,
                        "voteAverage" : null,
                        "voteCount" : null
                      },
                      "members" : [

                      ],
                      "remoteId" : null,
                      "title" : "Old",
                      "year" : 1950
                    },
                    {
                      "at" : "2026-11-18T08:20:00Z",
                      "change" : "arrived",
                      "kind" : "availability",
                      "members" : [
                        "Bo"
                      ],
                      "provider" : "Prime Video",
                      "providerId" : 9,
                      "remoteId" : 3,
                      "title" : "Last",
                      "year" : null
                    }
                  ],
                  "since" : "2026-11-17T11:06:40Z"
                }
                """#)
    }

    @Test func fetchesWriteWholeSecondsAndPosters() {
        #expect(
            ReportRenderer.json(Self.fetches) == #"""
                [
                  {
                    "availability" : 0,
                    "changed" : 0,
                    "due" : null,
                    "elapsed" : 0,
                    "failed" : 0,
                    "interval" : null,
                    "movies" : 0,
                    "nextFetchAt" : null,
                    "posters" : {
                      "downloaded" : 0,
                      "failed" : 0,
                      "malformed" : 0,
                      "removed" : 0
                    },
                    "requests" : 0,
                    "result" : "alreadyRunning",
                    "skipped" : 0,
                    "total" : null,
                    "unchanged" : 0
                  },
                  {
                    "availability" : 2,
                    "changed" : 3,
                    "due" : 9,
                    "elapsed" : 1.234,
                    "failed" : 1,
                    "interval" : 3600,
                    "movies" : 9,
                    "nextFetchAt" : "2026-11-18T12:06:40Z",
                    "posters" : {
                      "downloaded" : 3,
                      "failed" : 1,
                      "malformed" : 2,
                      "removed" : 4
                    },
                    "requests" : 12,
                    "result" : "newData",
                    "skipped" : 1,
                    "total" : 40,
                    "unchanged" : 4
                  }
                ]
                """#)
    }

    @Test func statusWritesEveryRunHookEventAndDestination() {
        #expect(
            ReportRenderer.json(Self.status) == #"""
                {
                  "checks" : {
                    "dueNow" : 1,
                    "dueWithinDay" : 3,
                    "dueWithinHour" : 2,
                    "nextCheckAt" : null,
                    "total" : 3
                  },
                  "consecutiveFailures" : 0,
                  "consecutiveNoData" : 0,
                  "due" : true,
                  "failing" : [

                  ],
                  "hook" : {
                    "changes" : 2,
                    "elapsed" : 0.123,
                    "exitStatus" : null,
                    "outcome" : "failed",
                    "program" : "notify-send",
                    "startedAt" : "2026-11-18T11:06:40Z",
                    "stderrTail" : "no display"
                  },
                  "interval" : 1800,
                  "lastResult" : "newData",
                  "mediaServers" : {
                    "last" : [
                      {
                        "member" : "Ann",
                        "movie" : "Dune (1984)",
                        "outcome" : "marked watched",
                        "receivedAt" : "2026-11-18T11:06:40Z",
                        "server" : "plex",
                        "user" : "ann"
                      }
                    ],
                    "unknownUsers" : [
                      {
                        "member" : null,
                        "movie" : "Up",
                        "outcome" : "ignored",
                        "receivedAt" : "2026-11-18T11:06:40Z",
                        "server" : "jellyfin",
                        "user" : "guest"
                      }
                    ]
                  },
                  "needsChoice" : [

                  ],
                  "nextFetchAt" : "2026-11-18T11:36:40Z",
                  "notify" : [
                    {
                      "configProblem" : false,
                      "dropped" : 0,
                      "lastDroppedAt" : null,
                      "lastFailure" : null,
                      "lastFailureAt" : null,
                      "lastSuccessAt" : "2026-11-18T11:06:40Z",
                      "name" : "ntfy",
                      "waiting" : 0
                    },
                    {
                      "configProblem" : true,
                      "dropped" : 1,
                      "lastDroppedAt" : "2026-11-18T11:06:40Z",
                      "lastFailure" : "403 refused",
                      "lastFailureAt" : "2026-11-18T11:06:40Z",
                      "lastSuccessAt" : null,
                      "name" : "gotify",
                      "waiting" : 2
                    }
                  ],
                  "runs" : [
                    {
                      "changed" : 0,
                      "endedAt" : null,
                      "failed" : 0,
                      "failure" : null,
                      "interval" : null,
                      "movies" : 0,
                      "nextFetchAt" : null,
                      "requests" : 0,
                      "result" : null,
                      "skipped" : 0,
                      "startedAt" : "2026-11-18T11:06:50Z",
                      "unchanged" : 0
                    },
                    {
                      "changed" : 3,
                      "endedAt" : "2026-11-18T11:06:45Z",
                      "failed" : 1,
                      "failure" : "HTTP 500",
                      "interval" : 1800,
                      "movies" : 9,
                      "nextFetchAt" : "2026-11-18T11:36:40Z",
                      "requests" : 11,
                      "result" : "newData",
                      "skipped" : 0,
                      "startedAt" : "2026-11-18T11:06:40Z",
                      "unchanged" : 5
                    }
                  ],
                  "unresolved" : [
                    "Mystery"
                  ]
                }
                """#)
    }

    @Test func statusOnThePageLeavesOutTheHooksProgramAndOutput() {
        #expect(
            ReportRenderer.json(Self.pageStatuses) == #"""
                [
                  {
                    "checks" : {
                      "dueNow" : 1,
                      "dueWithinDay" : 3,
                      "dueWithinHour" : 2,
                      "nextCheckAt" : null,
                      "total" : 3
                    },
                    "consecutiveFailures" : 0,
                    "consecutiveNoData" : 0,
                    "due" : true,
                    "failing" : [

                    ],
                    "hook" : {
                      "changes" : 2,
                      "elapsed" : 0.123,
                      "exitStatus" : -9,
                      "outcome" : "failed",
                      "startedAt" : "2026-11-18T11:06:40Z"
                    },
                    "interval" : 1800,
                    "lastResult" : "newData",
                    "mediaServers" : {
                      "last" : [
                        {
                          "member" : "Ann",
                          "movie" : "Dune (1984)",
                          "outcome" : "marked watched",
                          "receivedAt" : "2026-11-18T11:06:40Z",
                          "server" : "plex",
                          "user" : "ann"
                        }
                      ],
                      "unknownUsers" : [
                        {
                          "member" : null,
                          "movie" : "Up",
                          "outcome" : "ignored",
                          "receivedAt" : "2026-11-18T11:06:40Z",
                          "server" : "jellyfin",
                          "user" : "guest"
                        }
                      ]
                    },
                    "needsChoice" : [

                    ],
                    "nextFetchAt" : "2026-11-18T11:36:40Z",
                    "notify" : [
                      {
                        "configProblem" : false,
                        "dropped" : 0,
                        "lastDroppedAt" : null,
                        "lastFailure" : null,
                        "lastFailureAt" : null,
                        "lastSuccessAt" : "2026-11-18T11:06:40Z",
                        "name" : "ntfy",
                        "waiting" : 0
                      },
                      {
                        "configProblem" : true,
                        "dropped" : 1,
                        "lastDroppedAt" : "2026-11-18T11:06:40Z",
                        "lastFailure" : "403 refused",
                        "lastFailureAt" : "2026-11-18T11:06:40Z",
                        "lastSuccessAt" : null,
                        "name" : "gotify",
                        "waiting" : 2
                      }
                    ],
                    "runs" : [
                      {
                        "changed" : 0,
                        "endedAt" : null,
                        "failed" : 0,
                        "failure" : null,
                        "interval" : null,
                        "movies" : 0,
                        "nextFetchAt" : null,
                        "requests" : 0,
                        "result" : null,
                        "skipped" : 0,
                        "startedAt" : "2026-11-18T11:06:50Z",
                        "unchanged" : 0
                      },
                      {
                        "changed" : 3,
                        "endedAt" : "2026-11-18T11:06:45Z",
                        "failed" : 1,
                        "failure" : "HTTP 500",
                        "interval" : 1800,
                        "movies" : 9,
                        "nextFetchAt" : "2026-11-18T11:36:40Z",
                        "requests" : 11,
                        "result" : "newData",
                        "skipped" : 0,
                        "startedAt" : "2026-11-18T11:06:40Z",
                        "unchanged" : 5
                      }
                    ],
                    "unresolved" : [
                      "Mystery"
                    ]
                  },
                  {
                    "checks" : {
                      "dueNow" : 1,
                      "dueWithinDay" : 3,
                      "dueWithinHour" : 2,
                      "nextCheckAt" : null,
                      "total" : 3
                    },
                    "consecutiveFailures" : 0,
                    "consecutiveNoData" : 0,
                    "due" : true,
                    "failing" : [

                    ],
                    "hook" : null,
                    "interval" : 1800,
                    "lastResult" : "newData",
                    "mediaServers" : {
                      "last" : [

                      ],
                      "unknownUsers" : [

                      ]
                    },
                    "needsChoice" : [

                    ],
                    "nextFetchAt" : "2026-11-18T11:36:40Z",
                    "notify" : [

                    ],
                    "runs" : [

                    ],
                    "unresolved" : [
                      "Mystery"
                    ]
                  }
                ]
                """#)
    }

    @Test func webhookBodyAlwaysHasClick() {
        #expect(
            Self.webhookBodies == [
                #"{"click":"https://mustc.example/","items":2,"message":"Dune\nUp","title":"2 new"}"#,
                #"{"click":null,"items":1,"message":"Dune","title":"1 new"}"#,
            ])
    }
}
