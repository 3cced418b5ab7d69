/* License header, not documentation. */
@file:JvmName("Samples")
package com.example.sample

import kotlin.math.max
import java.util.List as JList
import kotlinx.coroutines.*

/** The largest size. */
const val MAX_SIZE = 10

/** A mutable counter with größe. */
var größe: Int = 0

internal val defaultName = "x"

/** Makes a greeting. */
fun greet(name: String): String = "hi $name"

private fun <T> helper(value: T): T {
    return value
}

/** A shape that can be drawn. */
interface Shape {
    /** The number of sides. */
    val sides: Int

    fun draw(canvas: Canvas)

    fun label(): String = "shape"
}

/** Colours. */
enum class Colour(val code: Int) {
    /** Pure red. */
    RED(1),
    GREEN(2);

    fun isRed() = this == RED
}

/**
 * A circle.
 */
@Deprecated("use Disc")
open class Circle<T : Number>(val radius: Double, private var name: String) : Base(radius), Shape, Comparable<Circle<T>> {
    override val sides: Int = 0
    protected lateinit var cache: MutableMap<String, Int>
    internal var counter = 0

    /** A secondary constructor. */
    constructor(radius: Double) : this(radius, "circle")

    init {
        counter = 1
    }

    override fun draw(canvas: Canvas) {
        canvas.drawCircle(radius, helper(counter))
        val local = max(1, 2)
        val f = { x: Int -> println(local) }
    }

    operator fun plus(other: Circle<T>): Circle<T> = this

    /** A nested class. */
    class Builder {
        private var radius: Double = 0.0
        fun radius(r: Double): Builder {
            this.radius = r
            return this
        }
    }

    inner class Inner

    companion object Factory {
        const val DEFAULT = 1.0
        fun create(): Circle<Double> = Circle(DEFAULT)
    }
}

/** A point. */
data class Point(val x: Int, val y: Int)

/** Results. */
sealed interface Result

object Registry : Shape {
    private val items = mutableListOf<String>()
    override val sides = 0
    override fun draw(canvas: Canvas) {}
}

class Delegating(shape: Shape) : Shape by shape

typealias Names = List<String>

fun String.shout(): String = uppercase()
