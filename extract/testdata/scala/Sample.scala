/* License header, not documentation. */
package com.example.sample

import scala.collection.mutable
import scala.util.{Try, Success => Ok}
import java.io._

/** A shape that can be drawn. */
trait Shape {
  /** The number of sides. */
  val sides: Int

  def draw(canvas: Canvas): Unit

  def label: String = "shape"
}

/** Colours with größe. */
sealed abstract class Colour(val code: Int)

/**
 * A circle.
 */
@deprecated("use Disc", "1.0")
class Circle[T <: AnyVal](val radius: Double, private var name: String) extends Base(radius) with Shape with Ordered[Circle[T]] {
  override val sides: Int = 0
  protected var cache: mutable.Map[String, Int] = mutable.Map.empty
  private[sample] var counter = 0
  final val MaxSize = 10

  /** An auxiliary constructor. */
  def this(radius: Double) = this(radius, "circle")

  override def draw(canvas: Canvas): Unit = {
    canvas.drawCircle(radius, helper(counter))
    val local = math.max(1, 2)
    val f = (x: Int) => println(local)
  }

  private def helper[A](x: A): A = x

  def +(other: Circle[T]): Circle[T] = this

  def compare(that: Circle[T]): Int = 0

  /** A nested class. */
  class Builder {
    private var radius: Double = 0.0
    def withRadius(r: Double): Builder = {
      this.radius = r
      this
    }
  }
}

/** The companion. */
object Circle {
  val Default = 1.0
  def apply(r: Double): Circle[Int] = new Circle[Int](r)
}

/** A point. */
case class Point(x: Int, y: Int) extends Shape {
  val sides = 0
  def draw(canvas: Canvas): Unit = ()
}

case object Origin

/** A type alias. */
type Names = List[String]

enum Direction {
  case North, South
  case Other(angle: Int)
}

object Main extends App {
  var count: Int = 0
  println(Circle(2.0).label)
}
