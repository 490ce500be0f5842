internal import CZeroMQ

/// A failure reported by libzmq (or detected by this wrapper before calling it).
///
/// `EINTR` never escapes the wrapper: interrupted calls are retried.
public struct ZMQError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The errno value of a failure, with Swift names for the values that libzmq reports.
    ///
    /// Codes are compared by value, so `error.code == .again` and `switch error.code { case .again: ... }` work.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The errno value, as `zmq_errno()` reports it.
        public let rawValue: Int32

        /// Wraps an errno value.
        public init(rawValue: Int32) {
            self.rawValue = rawValue
        }

        /// `EAGAIN`: non-blocking mode was requested and the operation could not complete, or a timeout elapsed.
        public static let again = Code(rawValue: EAGAIN)
        /// `ETERM`: the context of the socket was shut down or terminated.
        public static let contextTerminated = Code(rawValue: ETERM)
        /// `EFSM`: the operation is not valid in the socket's current state (e.g. a REQ socket sending twice).
        public static let invalidState = Code(rawValue: EFSM)
        /// `EHOSTUNREACH`: the message could not be routed (e.g. a ROUTER with `routerMandatory` and an unknown peer).
        public static let hostUnreachable = Code(rawValue: EHOSTUNREACH)
        /// `EADDRINUSE`: the endpoint is already bound.
        public static let addressInUse = Code(rawValue: EADDRINUSE)
        /// `EADDRNOTAVAIL`: the requested address is not local.
        public static let addressNotAvailable = Code(rawValue: EADDRNOTAVAIL)
        /// `EINVAL`: an argument (endpoint, option value, ...) is invalid.
        public static let invalidArgument = Code(rawValue: EINVAL)
        /// `ENOTSOCK`: the socket is closed.
        public static let notSocket = Code(rawValue: ENOTSOCK)
        /// `EPROTONOSUPPORT`: the transport of the endpoint is not supported.
        public static let protocolNotSupported = Code(rawValue: EPROTONOSUPPORT)
        /// `ENOCOMPATPROTO`: the transport is not compatible with the socket type.
        public static let incompatibleProtocol = Code(rawValue: ENOCOMPATPROTO)
        /// `EMTHREAD`: no I/O thread is available (the context has zero I/O threads).
        public static let noIOThread = Code(rawValue: EMTHREAD)
        /// `ENOTSUP`: the operation is not supported by this socket type or this libzmq build.
        public static let notSupported = Code(rawValue: ENOTSUP)
        /// `ENODEV`: the network interface of the endpoint does not exist.
        public static let noDevice = Code(rawValue: ENODEV)
        /// `ENOENT`: a file (e.g. an ipc path's directory) does not exist.
        public static let noSuchFile = Code(rawValue: ENOENT)
        /// `EACCES`: permission denied (e.g. an ipc path).
        public static let permissionDenied = Code(rawValue: EACCES)
        /// `EFAULT`: an invalid pointer or handle was given to libzmq.
        public static let badAddress = Code(rawValue: EFAULT)
        /// `ENOMEM`: not enough memory.
        public static let outOfMemory = Code(rawValue: ENOMEM)
        /// `EMFILE`: too many open files or sockets.
        public static let tooManyOpenFiles = Code(rawValue: EMFILE)
        /// `EMSGSIZE`: the message is too large.
        public static let messageTooLarge = Code(rawValue: EMSGSIZE)
        /// `ECONNREFUSED`: the connection was refused.
        public static let connectionRefused = Code(rawValue: ECONNREFUSED)
        /// `ENOBUFS`: no buffer space available.
        public static let noBufferSpace = Code(rawValue: ENOBUFS)
        /// `ENOTCONN`: the socket is not connected.
        public static let notConnected = Code(rawValue: ENOTCONN)
        /// `ETIMEDOUT`: the operation timed out.
        public static let timedOut = Code(rawValue: ETIMEDOUT)

        /// The C name of the code (`"EAGAIN"`, `"EFSM"`, ...), or `nil` for a value this wrapper has no name for.
        public var name: String? {
            Self.names[rawValue]
        }

        /// The C name, or `errno N` when the value has no name here.
        public var description: String {
            name ?? "errno \(rawValue)"
        }

        private static let names: [Int32: String] = [
            EAGAIN: "EAGAIN", ETERM: "ETERM", EINTR: "EINTR", EFSM: "EFSM", EHOSTUNREACH: "EHOSTUNREACH",
            EADDRINUSE: "EADDRINUSE", EADDRNOTAVAIL: "EADDRNOTAVAIL", EINVAL: "EINVAL", ENOTSOCK: "ENOTSOCK",
            EPROTONOSUPPORT: "EPROTONOSUPPORT", ENOCOMPATPROTO: "ENOCOMPATPROTO", EMTHREAD: "EMTHREAD",
            ENOTSUP: "ENOTSUP", ENODEV: "ENODEV", ENOENT: "ENOENT", EACCES: "EACCES", EFAULT: "EFAULT",
            ENOMEM: "ENOMEM", EMFILE: "EMFILE", EMSGSIZE: "EMSGSIZE", ECONNREFUSED: "ECONNREFUSED",
            ENOBUFS: "ENOBUFS", ENOTCONN: "ENOTCONN", ETIMEDOUT: "ETIMEDOUT", ENETDOWN: "ENETDOWN",
            ENETUNREACH: "ENETUNREACH", ECONNABORTED: "ECONNABORTED", ECONNRESET: "ECONNRESET",
            EAFNOSUPPORT: "EAFNOSUPPORT", ENAMETOOLONG: "ENAMETOOLONG", EINPROGRESS: "EINPROGRESS",
        ]
    }

    /// What went wrong.
    public let code: Code
    /// libzmq's description of ``code`` (`zmq_strerror`).
    public let message: String
    /// The operation that failed, e.g. `"zmq_bind(tcp://127.0.0.1:5555)"`.
    public let operation: String

    /// Creates an error for `code`, with libzmq's message for it.
    public init(_ code: Code, operation: String) {
        self.code = code
        // zmq_strerror never returns NULL: it returns strerror(3)'s text or one of libzmq's static strings.
        self.message = String(cString: zmq_strerror(code.rawValue))
        self.operation = operation
    }

    /// `"<operation> failed: <message> (<code>)"`.
    public var description: String {
        "\(operation) failed: \(message) (\(code))"
    }
}
