import CCurl
import Foundation
import Synchronization

/// Owns a curl multi handle and the thread that drives it. Callers hand in requests through a locked inbox and
/// wake the thread with `curl_multi_wakeup`; everything else is touched by the loop thread alone. The thread
/// stops after a few idle seconds and starts again with the next request; connections stay cached meanwhile.
///
/// It is also a task executor: a fetch that prefers it runs its operations on the loop thread between polls, so
/// an answer reaches the code waiting for it without waking another thread (at 25 ms latency this cut voluntary
/// context switches from 25,600 to 6,600 per 10,000 requests).
final class CurlLoop: TaskExecutor, @unchecked Sendable {
    /// What callers hand the loop thread; taken whole on each turn of the loop.
    private struct Work {
        var submitted: [CurlTransfer] = []
        var cancelled: [UInt64] = []
        var jobs: [UnownedJob] = []

        var isEmpty: Bool { submitted.isEmpty && cancelled.isEmpty && jobs.isEmpty }
    }

    private struct Inbox {
        var nextId: UInt64 = 0
        var work = Work()
        var loopThread: pthread_t?

        var isEmpty: Bool { work.isEmpty }
        var onLoopThread: Bool { loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    private let inbox = Mutex(Inbox())
    /// nil when libcurl could not be set up; every request then fails with `setupFailure`.
    private let multi: UnsafeMutableRawPointer?
    private let setupFailure: String?
    private let maxIdleHandles: Int
    private let idleStop: Duration
    /// When the loop was last busy, against `idleStop`.
    private let time: TimeSource
    /// Set once whoever made the loop has let go of it (`abandon`): the thread then stops as soon as it is idle.
    private let abandoned = Atomic<Bool>(false)

    // Loop thread only.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []

    init(maxConnections: Int, idleStop: Duration = .seconds(5), time: TimeSource) {
        maxIdleHandles = maxConnections * 2
        self.idleStop = idleStop
        self.time = time
        guard Self.globalInit, let multi = curl_multi_init() else {
            (multi, setupFailure) = (nil, "libcurl could not be initialised")
            return
        }
        let limits = [
            mustc_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnections),
            mustc_multi_set_long(multi, CURLMOPT_MAXCONNECTS, maxConnections),
        ]
        if let refused = limits.first(where: { $0 != CURLM_OK }) {
            curl_multi_cleanup(multi)
            (self.multi, setupFailure) = (nil, "libcurl refused the connection limits (\(Self.describe(refused)))")
        } else {
            (self.multi, setupFailure) = (multi, nil)
        }
    }

    deinit {
        for easy in idleHandles { curl_easy_cleanup(easy) }
        if let multi { curl_multi_cleanup(multi) }
    }

    /// Whether the loop thread is alive; it stops after `idleStop` without work.
    var threadRunning: Bool { inbox.withLock { $0.loopThread != nil } }

    /// No more requests will come: the thread stops once idle rather than after `idleStop`, and with its last
    /// reference gone the loop closes its connections (`deinit`). A command run inside a longer-lived process (the
    /// tests' `fetch`) so leaves no thread or connection behind it; in the binary the process ends anyway. Work
    /// that still comes starts the thread again, as after an idle stop.
    func abandon() {
        abandoned.store(true, ordering: .relaxed)
        if let multi { curl_multi_wakeup(multi) }
    }

    func perform(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let setupFailure { throw TransportError.unreachable(setupFailure) }
        let id = inbox.withLock { inbox in
            inbox.nextId += 1
            return inbox.nextId
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                submit(CurlTransfer(id: id, request: request, continuation: continuation))
            }
        } onCancel: {
            hand { $0.work.cancelled.append(id) }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard multi != nil else {
            // No loop thread without libcurl: the job still has to run somewhere.
            return Thread { job.runSynchronously(on: self.asUnownedTaskExecutor()) }.start()
        }
        hand { $0.work.jobs.append(job) }
    }

    /// Checking cancellation under the inbox lock orders it against `onCancel`: either this sees the flag, or the
    /// cancellation lands in the inbox after the transfer and the loop meets both in that order.
    private func submit(_ transfer: CurlTransfer) {
        let accepted = hand { inbox in
            guard !Task.isCancelled else { return false }
            inbox.work.submitted.append(transfer)
            return true
        }
        if !accepted { transfer.continuation.resume(throwing: CancellationError()) }
    }

    /// Puts work in the inbox and makes sure the loop thread will see it: starts it, or wakes it from its poll.
    private func hand<T>(_ put: (inout Inbox) -> T) -> T {
        let (result, wake, startThread) = inbox.withLock { inbox -> (T, Bool, Bool) in
            let result = put(&inbox)
            if inbox.isEmpty { return (result, false, false) }
            if inbox.loopThread == nil {
                inbox.loopThread = pthread_t()
                return (result, false, true)
            }
            return (result, !inbox.onLoopThread, false)
        }
        if startThread { Thread { self.runLoop() }.start() }
        if wake, let multi { curl_multi_wakeup(multi) }
        return result
    }

    private func runLoop() {
        guard let multi else { return }
        inbox.withLock { $0.loopThread = pthread_self() }
        var lastBusy = time.instant
        while true {
            let taken = inbox.withLock { inbox -> Work? in
                let idle = inbox.isEmpty && active.isEmpty
                if idle && (abandoned.load(ordering: .relaxed) || lastBusy.duration(to: time.instant) >= idleStop) {
                    inbox.loopThread = nil
                    return nil
                }
                // Moved out, not copied: a copy would make every turn reallocate the inbox's arrays.
                defer { inbox.work = Work() }
                return inbox.work
            }
            guard let taken else { return }
            for job in taken.jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            // Cancelled transfers leave the multi handle before new ones join it, so a retry or the next movie
            // never shares a turn with the transfer it replaces; one cancelled in the turn it came is never started.
            taken.cancelled.forEach(cancel)
            for transfer in taken.submitted {
                if taken.cancelled.contains(transfer.id) {
                    transfer.continuation.resume(throwing: CancellationError())
                } else {
                    start(transfer)
                }
            }
            var running: Int32 = 0
            let performed = curl_multi_perform(multi, &running)
            if performed != CURLM_OK { failAll("libcurl failed (\(Self.describe(performed)))") }
            collectFinished()
            if !active.isEmpty || !taken.isEmpty { lastBusy = time.instant }
            // Work the jobs just handed in (they came from this thread, so nothing woke the poll) before waiting.
            guard inbox.withLock({ $0.isEmpty }) else { continue }
            let polled = curl_multi_poll(multi, nil, 0, 1000, nil)
            if polled != CURLM_OK {
                failAll("libcurl failed (\(Self.describe(polled)))")
                // A poll that fails at once would otherwise spin this thread until it stops for idleness. Not
                // curl's own poll again: it has just failed, and may fail at once every time. This thread is
                // outside Swift concurrency, so it cannot await a clock: the time source's thread pause blocks it.
                TimeSource.pauseThread(for: .milliseconds(10))
            }
        }
    }

    private func start(_ transfer: CurlTransfer) {
        let easy: UnsafeMutableRawPointer
        switch Self.newHandle(reusing: idleHandles.popLast()) {
        case .success(let handle): easy = handle
        case .failure(let error): return transfer.continuation.resume(throwing: error)
        }
        if let refusal = configure(easy, for: transfer) {
            release(easy, transfer, added: false)
            return transfer.continuation.resume(throwing: TransportError.unreachable(refusal))
        }
        active[easy] = transfer
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            release(easy, transfer, added: false)
            return transfer.continuation.resume(
                throwing: TransportError.unreachable("libcurl could not start a transfer (\(Self.describe(added)))"))
        }
    }

    /// Sets the per-request options; returns what libcurl refused, in words that never include the URL.
    private func configure(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer) -> String? {
        let request = transfer.request
        let me = Unmanaged.passUnretained(transfer).toOpaque()
        let milliseconds = Int(min(max(request.timeout, 0.001), 86_400) * 1000)
        let options: [(String, CURLcode)] = [
            ("the URL", mustc_easy_set_string(easy, CURLOPT_URL, request.url.absoluteString)),
            ("the body callback", mustc_easy_set_pointer(easy, CURLOPT_WRITEDATA, me)),
            ("the header callback", mustc_easy_set_pointer(easy, CURLOPT_HEADERDATA, me)),
            ("the timeout", mustc_easy_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)),
        ]
        if let (what, code) = options.first(where: { $0.1 != CURLE_OK }) {
            return "libcurl refused \(what) (\(Self.describe(code)))"
        }
        if let refusal = Self.configureMethod(easy, for: transfer) { return refusal }
        for (name, value) in request.headers {
            guard let list = curl_slist_append(transfer.headerList, "\(name): \(value)") else {
                return "libcurl could not add the \(name) header"
            }
            transfer.headerList = list
        }
        let headers = mustc_easy_set_headers(easy, transfer.headerList)
        return headers == CURLE_OK ? nil : "libcurl refused the headers (\(Self.describe(headers)))"
    }

    /// A GET, or a POST of the request's body (copied by libcurl). Handles are reused, so a GET says so again.
    /// An empty `Expect:` keeps curl from waiting for a `100 Continue` before a larger body.
    private static func configureMethod(_ easy: UnsafeMutableRawPointer, for transfer: CurlTransfer) -> String? {
        guard let body = transfer.request.body else {
            let code = mustc_easy_set_long(easy, CURLOPT_HTTPGET, 1)
            return code == CURLE_OK ? nil : "libcurl refused a GET (\(describe(code)))"
        }
        var code = mustc_easy_set_long(easy, CURLOPT_POSTFIELDSIZE, body.count)
        if code == CURLE_OK {
            code = body.withUnsafeBytes { raw in
                var bytes = [CChar](raw.bindMemory(to: CChar.self))
                bytes.append(0)
                return bytes.withUnsafeMutableBufferPointer {
                    mustc_easy_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
                }
            }
        }
        guard code == CURLE_OK else { return "libcurl refused the body (\(describe(code)))" }
        guard let list = curl_slist_append(transfer.headerList, "Expect:") else {
            return "libcurl could not add the Expect header"
        }
        transfer.headerList = list
        return nil
    }

    private func cancel(_ id: UInt64) {
        guard let (easy, transfer) = active.first(where: { $0.value.id == id }) else { return }
        release(easy, transfer)
        transfer.continuation.resume(throwing: CancellationError())
    }

    /// Ends every transfer in flight with `reason`: the multi handle failed as a whole.
    private func failAll(_ reason: String) {
        for (easy, transfer) in active {
            release(easy, transfer)
            transfer.continuation.resume(throwing: TransportError.unreachable(reason))
        }
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = active[easy]
            else { continue }
            let code = message.pointee.data.result
            var status = 0
            let known = mustc_easy_response_code(easy, &status) == CURLE_OK
            release(easy, transfer)
            transfer.finish(code: code, status: known ? status : nil)
        }
    }

    private func release(_ easy: UnsafeMutableRawPointer, _ transfer: CurlTransfer, added: Bool = true) {
        if added { curl_multi_remove_handle(multi, easy) }
        active[easy] = nil
        _ = mustc_easy_set_headers(easy, nil)
        curl_slist_free_all(transfer.headerList)
        transfer.headerList = nil
        if idleHandles.count < maxIdleHandles {
            idleHandles.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }

    /// An idle handle, or a new one with the options every request shares; the per-request ones are set in
    /// `configure`.
    private static func newHandle(reusing idle: UnsafeMutableRawPointer?) -> Result<
        UnsafeMutableRawPointer, TransportError
    > {
        if let idle { return .success(idle) }
        guard let easy = curl_easy_init() else {
            return .failure(.unreachable("libcurl could not start a transfer"))
        }
        // No CURLOPT_PIPEWAIT: with it, every transfer started beside the first one on a fresh loop waited to
        // learn whether that first connection could multiplex, so one hanging answer held back all the others
        // (seen: 1 request of 6 reached the server in 4 s). Connections stay capped at C either way.
        let options: [(String, CURLcode)] = [
            ("NOSIGNAL", mustc_easy_set_long(easy, CURLOPT_NOSIGNAL, 1)),
            ("PROTOCOLS_STR", mustc_easy_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")),
            ("ACCEPT_ENCODING", mustc_easy_set_string(easy, CURLOPT_ACCEPT_ENCODING, "")),
            ("USERAGENT", mustc_easy_set_string(easy, CURLOPT_USERAGENT, "mustc/\(MustcVersion.current)")),
            ("WRITEFUNCTION", mustc_easy_set_write_function(easy, receiveBody)),
            ("HEADERFUNCTION", mustc_easy_set_header_function(easy, receiveHeader)),
        ]
        if let (name, code) = options.first(where: { $0.1 != CURLE_OK }) {
            curl_easy_cleanup(easy)
            return .failure(.unreachable("libcurl refused CURLOPT_\(name) (\(describe(code)))"))
        }
        return .success(easy)
    }

    /// Returning less than it was handed makes curl end the transfer: so does a missing context.
    private static let receiveBody: curl_write_callback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        return transfer.receiveBody(bytes) ? size * count : 0
    }

    private static let receiveHeader: curl_write_callback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    }

    static func describe(_ code: CURLcode) -> String {
        curl_easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }

    static func describe(_ code: CURLMcode) -> String {
        curl_multi_strerror(code).map { String(cString: $0) } ?? "libcurl multi error \(code.rawValue)"
    }
}
