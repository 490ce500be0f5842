import Instrumentation
import ServiceContextModule

/// A stand-in for the instrument an app bootstraps (swift-otel's W3C propagator, say): it injects the `traceparent`
/// a service context holds under ``Key``, as a propagator injects the context of the task's current span.
package struct TracePropagator: Instrument {
    package enum Key: ServiceContextKey { package typealias Value = String }

    package init() {}

    package func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier,
        into context: inout ServiceContext,
        using extractor: Extract
    ) where Extract.Carrier == Carrier {}

    package func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext,
        into carrier: inout Carrier,
        using injector: Inject
    ) where Inject.Carrier == Carrier {
        if let value = context[Key.self] { injector.inject(value, forKey: "traceparent", into: &carrier) }
    }
}
