import Foundation
import MustCore

// The CPU of reading one details answer with the appended blocks, for `contrib/benchmarks/run --only answer`:
// read whole, as before RegionCut, and cut to the region first, as the client does. Alternated, on this thread's
// CPU clock, so other processes on the machine change the figures little.
//
//     answer-bench ANSWER.json REGION [ROUNDS]
//
// Prints one JSON object: the body's bytes, and per reading the median and range in microseconds.

func threadCPU() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e6 + Double(now.tv_nsec) / 1e3
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let body = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: answer-bench ANSWER.json REGION [ROUNDS]\n".utf8))
    exit(64)
}
let region = arguments[2]
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 400 : 400
var timings: [Bool: [Double]] = [false: [], true: []]
do {
    let whole = try DetailsReading.read(body, region: region, cutting: false)
    let cut = try DetailsReading.read(body, region: region, cutting: true)
    guard whole.movie == cut.movie, whole.extras == cut.extras else {
        FileHandle.standardError.write(Data("answer-bench: the cut answer reads differently\n".utf8))
        exit(1)
    }
    for round in 0..<rounds {
        for cutting in round % 2 == 0 ? [false, true] : [true, false] {
            let started = threadCPU()
            _ = try DetailsReading.read(body, region: region, cutting: cutting)
            timings[cutting]!.append(threadCPU() - started)
        }
    }
} catch {
    FileHandle.standardError.write(Data("answer-bench: \(error)\n".utf8))
    exit(1)
}

func figures(_ values: [Double]) -> [String: Double] {
    let sorted = values.sorted()
    return [
        "medianMicros": (sorted[sorted.count / 2] * 10).rounded() / 10, "minMicros": (sorted[0] * 10).rounded() / 10,
        "p90Micros": (sorted[sorted.count * 9 / 10] * 10).rounded() / 10,
    ]
}
let report: [String: Any] = [
    "bytes": body.count, "region": region, "rounds": rounds, "whole": figures(timings[false]!),
    "cut": figures(timings[true]!),
]
let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
print(String(decoding: json, as: UTF8.self))
