import ContainmentModel
import GridKit
import Testing

/// The grid's layout as a pure function: two columns, row by row, and the order read back from the frames.
struct GridLayoutTests {
    @Test func threeChildrenFillTwoRowsOfTwoColumns() {
        let frames = GridLayout.frames(count: 3, in: Rect(x: 0, y: 0, width: 800, height: 600))
        #expect(
            frames == [
                Rect(x: 0, y: 0, width: 400, height: 300),
                Rect(x: 400, y: 0, width: 400, height: 300),
                Rect(x: 0, y: 300, width: 400, height: 300),
            ]
        )
        #expect(GridLayout.frames(count: 0, in: Rect(x: 0, y: 0, width: 800, height: 600)).isEmpty)
    }

    @Test func theOrderIsReadBackFromTheFrames() {
        let frames = GridLayout.frames(count: 3, in: Rect(x: 0, y: 0, width: 800, height: 600))
        let laidOut: [ControllerID] = ["c", "a", "b"]
        let byID = Dictionary(uniqueKeysWithValues: zip(laidOut, frames))
        #expect(GridLayout.order(of: ["a", "b", "c", "unplaced"], frames: byID) == ["c", "a", "b", "unplaced"])
    }
}
