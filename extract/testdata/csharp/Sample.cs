// A file header, not documentation.
using System;
using System.Collections.Generic;
using Io = System.IO;
using static System.Math;

namespace Example.Sample
{
    /// <summary>A shape that can be drawn.</summary>
    public interface IShape
    {
        /// <summary>Draws the shape.</summary>
        void Draw(Canvas canvas);
        string Name { get; }
        event EventHandler Changed;
    }

    /// <summary>Colours.</summary>
    enum Colour
    {
        /// <summary>Pure red.</summary>
        Red = 1,
        Green,
    }

    /// <summary>Called when done.</summary>
    public delegate void Done(int code);

    /// <summary>
    /// A circle with a <see cref="IShape"/> contract.
    /// </summary>
    /// <param name="radius">the radius</param>
    [Serializable]
    [Obsolete("use Disc")]
    public abstract class Circle<T> : Base, IShape where T : struct
    {
        /// <summary>The default radius.</summary>
        public const double DefaultRadius = 1.0;
        private static readonly List<string> names = new List<string>();
        protected Dictionary<string, int> größe, other;
        int counter;

        /// <summary>The name.</summary>
        public string Name { get; private set; } = "circle";
        internal int Count => counter;
        public event EventHandler Changed;

        /// <summary>Makes a circle.</summary>
        public Circle(double radius) : base(radius)
        {
            this.radius = radius;
        }

        ~Circle() { }

        public void Draw(Canvas canvas)
        {
            canvas.DrawCircle(radius, Helper(counter));
            var local = Max(1, 2);
            Action a = () => Console.WriteLine(local);
            int Local(int v) => v + 1;
        }

        private static int Helper(int x) => x;

        protected internal abstract TResult Accept<TResult>(IVisitor<TResult> visitor);

        public static Circle<T> operator +(Circle<T> a, Circle<T> b) => a;

        public static implicit operator double(Circle<T> c) => c.counter;

        public int this[int i] => i;

        /// <summary>A nested class.</summary>
        public class Builder
        {
            double radius;
        }

        interface IVisitor<R>
        {
            R Visit(Circle<T> c);
        }
    }

    /// <summary>A point.</summary>
    public struct Point
    {
        public int X;
        public int Y { get; set; }
    }

    public record Person(string First, string Last);

    namespace Inner
    {
        static class Extensions
        {
            public static int Twice(this int n) => n * 2;
        }
    }
}

namespace Example.FileScoped2
{
    using Alias = System.Collections.Generic.List<int>;
}
