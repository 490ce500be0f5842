/// An enumeration that readers — the wire, `ctl`, topologies — name by string.
public protocol Named: RawRepresentable, CaseIterable where RawValue == String {}

extension Named {
    /// The value named `text`, or `malformed` listing the names there are.
    public static func named(_ text: String, as what: String) throws(ContainmentError) -> Self {
        guard let value = Self(rawValue: text) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            throw ContainmentError(.malformed, deferred: "Unknown \(what) \"\(text)\"; one of \(names).")
        }
        return value
    }
}

extension ModalPresentationStyle: Named {}
extension ModalTransitionStyle: Named {}
extension PageTransitionStyle: Named {}
extension SpineLocation: Named {}
extension SplitDisplayMode: Named {}
extension PageDirection: Named {}
extension Orientation: Named {}
extension SwipeDirection: Named {}
