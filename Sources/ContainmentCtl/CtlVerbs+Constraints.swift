import ArgumentParser
import ContainmentBus
import ContainmentModel

extension CtlVerbs {
    struct Constrain: CtlVerb {
        static let configuration = CommandConfiguration(
            abstract: "Add a constraint to a controller's views (SPEC §16).",
            discussion: """
                EXPR is `A.attr REL [m *] B.attr [+|- c] [@p]` or `A.attr REL c [@p]`: views as everywhere (ID, its \
                root view, or ID/NAME), attributes left right top bottom leading trailing width height centerX \
                centerY, REL ==, <= or >=, a priority 1–1000 (1000, required). The owner may name its own views and \
                its children's root views; its own root view is the frame of reference its parent places. E.g. \
                ctl constrain nav c1 'detail.width == 0.5 * nav.width - 10 @750'
                """
        )
        @Argument(help: "The controller that owns the constraint.") var owner: String
        @Argument(help: "The constraint's id, unique among the owner's.") var id: String
        @Argument(help: "The constraint, quoted: 'child.width == 0.5 * parent.width'.") var expression: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            let constraint: LayoutConstraint
            do {
                constraint = try LayoutConstraint(parsing: expression)
            } catch {
                throw ValidationError(error.message)
            }
            return [Request(.constrain(ControllerID(owner), id: id, constraint), options)]
        }
    }

    struct Unconstrain: CtlVerb {
        static let configuration = CommandConfiguration(abstract: "Remove a controller's constraint (SPEC §16).")
        @Argument(help: "The controller that owns the constraint.") var owner: String
        @Argument(help: "The constraint's id.") var id: String
        @OptionGroup var options: CtlOptions
        func requests(_ state: () throws -> TreeView) throws -> [Request] {
            [Request(.unconstrain(ControllerID(owner), id: id), options)]
        }
    }
}
