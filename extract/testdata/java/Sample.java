/* License header, not a doc comment of the package. */
package com.example.sample;

import java.util.List;
import java.util.Map;
import static java.lang.Math.max;
import java.io.*;

/**
 * A shape that can be drawn.
 */
public interface Shape {
    /** The number of sides. */
    int SIDES = 0;

    /** Draws the shape. */
    void draw(Canvas canvas);

    default String label() {
        return name();
    }
}

/** Colours, with their größe. */
enum Colour implements Comparable<Colour> {
    /** Pure red. */
    RED(1),
    GREEN(2);

    private final int code;

    Colour(int code) {
        this.code = code;
    }
}

/**
 * A circle.
 * @param <T> the unit
 */
@Deprecated
@SuppressWarnings("unchecked")
public abstract class Circle<T extends Number> extends Base implements Shape, Comparable<Circle<T>> {
    /** The default radius. */
    public static final double DEFAULT_RADIUS = 1.0;
    protected List<String> names;
    private Map<String, Integer> größe = null, other;
    int counter;

    /** Makes a circle. */
    public Circle(double radius) {
        super(radius);
        this.radius = radius;
    }

    @Override
    public void draw(Canvas canvas) {
        canvas.drawCircle(radius, helper(counter));
        int local = max(1, 2);
        Runnable r = () -> System.out.println(local);
    }

    private static int helper(int x) {
        return x;
    }

    protected abstract <R> R accept(Visitor<R> visitor) throws IllegalStateException;

    /** A nested class. */
    public static class Builder {
        private double radius;

        Builder radius(double r) {
            this.radius = r;
            return this;
        }
    }

    interface Visitor<R> {
        R visit(Circle<?> c);
    }
}

/** A point record. */
public record Point(int x, int y) implements Shape {
    public Point {
        check(x);
    }

    public void draw(Canvas canvas) {}

    static Point origin() {
        return new Point(0, 0);
    }
}

/** An annotation type. */
@interface Marker {
    /** The value. */
    String value() default "";
    int PRIORITY = 1;
}
