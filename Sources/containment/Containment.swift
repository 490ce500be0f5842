import ArgumentParser

@main
struct Containment: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Containment.")
}
