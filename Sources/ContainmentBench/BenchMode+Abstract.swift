extension BenchMode {
    /// What the mode measures: its line in `containment bench --help`.
    package var abstract: String {
        switch self {
        case .all: "Every figure (the default)."
        case .model: "The model alone (no processes): the figure to profile."
        case .core:
            """
            The supervisor's own work per request, on one thread, without sockets or disk (no processes): pipelined \
            requests of one command, and delivery's requests of --events-per-request commands.
            """
        case .loop: "The supervisor's whole loop in-process, over ipc (not in `all`): callgrind-loop.sh's."
        case .codec: "The codec: the hand-written protobuf paths beside SwiftProtobuf (no processes)."
        case .bus:
            """
            The figures over the bus, each beside raw ZeroMQ and the floor (raw ZeroMQ writing each batch O_DSYNC \
            before answering it): round trips, pipelined requests, event delivery to 1 and 8 subscribers.
            """
        case .host: "The callbacks through one host: 1 and 1,000 actors, content and busy."
        case .calls:
            """
            A typed method call's round trip beside an invoke's, a resize answered by code beside one that asks \
            nobody, and a call's way to its method beside a raw relay and one that syncs (--round-trips of each).
            """
        case .creation: "The creation of --controllers controllers over --hosts hosts, with memory and peak RSS."
        case .durability: "The durability figures: recovery, and each journalSync mode."
        case .replicated:
            """
            The replicated journal (not in `all`; needs etcd-server and containment-etcd): round trips and pipelined \
            requests with the local journal, then with journal: etcd (three members on this machine, supervisors a \
            and b), then --failovers kills of the leader, each timed to the first command the new leader accepts.
            """
        case .peer:
            """
            Redis beside Containment (not in `all`; needs redis-server and redis-benchmark): Debian's redis-server \
            with appendfsync always and everysec on a unix socket in the bench's directory, driven by \
            redis-benchmark in the bus figures' shapes (SETs one at a time; --clients × --window outstanding), \
            before and after the bus figures, beside which it prints them, the floor, the ratios and issue 45's \
            targets.
            """
        }
    }
}
