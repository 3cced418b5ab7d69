// Sample exercises every Swift construct the extractor knows.
import Foundation
import UIKit.UIView

/// The largest size.
public let maxSize: Int = 10
var counter = 0
private var größe: Double = 1.5

/// Things that have an area.
public protocol Shape: AnyObject, CustomStringConvertible {
    /// The area.
    var area: Double { get }
    /// Scales the shape.
    func scale(by factor: Double) -> Self
    init(name: String)
}

/// A circle.
@available(iOS 13, *)
public final class Circle: NSObject, Shape {
    /// The radius.
    public private(set) var radius: Double
    let name: String
    static let unit = Circle(name: "unit")
    fileprivate var cache: [String: Int] = [:]

    /// Creates a circle.
    public required init(name: String) {
        self.name = name
        self.radius = 1.0
        super.init()
    }

    deinit {
        print("bye")
    }

    public var area: Double {
        return 3.14 * radius * radius
    }

    /// Scales the circle.
    @discardableResult
    public func scale(by factor: Double) -> Self {
        radius *= factor
        helper(factor)
        return self
    }

    private func reset() {
        cache.removeAll()
    }

    public static func == (lhs: Circle, rhs: Circle) -> Bool {
        return lhs.radius == rhs.radius
    }

    /// A nested class.
    class Inner {
        var value = 0
    }

    subscript(index: Int) -> Int {
        return index
    }
}

/// A point.
struct Point: Equatable {
    var x: Int
    var y: Int
}

/// Colours.
enum Color: String {
    /// Red.
    case red = "r"
    case green, blue
    case custom(Int)

    func describe() -> String {
        return rawValue
    }
}

/// An alias.
typealias Index = [String: Point]

extension Point: CustomStringConvertible {
    var description: String { "(\(x), \(y))" }
    func moved(dx: Int) -> Point {
        return Point(x: x + dx, y: y)
    }
}

actor Counter {
    var value = 0
}

/// Adds two numbers.
func add(_ a: Int, _ b: Int) -> Int {
    let local = a + b
    return local
}

infix operator <+>: AdditionPrecedence

open class Base<T> {
    open func run() {}
}
