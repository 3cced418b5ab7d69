// Sample exercises every C++ construct the extractor knows.
#include <string>
#include <vector>
#include "shape.hpp"

using std::string;
using namespace std;

/// The largest size.
constexpr int kMaxSize = 10;
static int counter = 0;

namespace geo {

/// Interface of shapes.
class Shape {
public:
    /// Creates a shape.
    explicit Shape(const string &name);
    virtual ~Shape();
    /// Returns the area.
    virtual double area() const = 0;
    static int count;

protected:
    string name_;

private:
    int größe_ = 1;
    void reset();
};

/// A circle.
class Circle final : public Shape, private Comparable<Circle> {
    double radius;

public:
    Circle(double r) : Shape("circle"), radius(r) {}
    ~Circle() override {}
    double area() const override { return 3.14 * radius * radius; }
    bool operator==(const Circle &other) const;
    Circle &operator+=(double d);

    /// A nested type.
    struct Bounds {
        double w, h;
    };
    enum class Mode { Fill, Stroke };
};

/// A plain struct.
struct Point {
    int x;
    int y;
private:
    int secret;
};

union Bits {
    int i;
    float f;
};

enum Color { Red, Green = 2 };

using Index = std::vector<Point>;
typedef unsigned long size_type;

/// Generic max.
template <typename T>
T maxOf(T a, T b) {
    return a > b ? a : b;
}

template <typename T>
class Box {
public:
    T value;
};

} // namespace geo

/// Out-of-line constructor.
geo::Shape::Shape(const string &name) : name_(name) {
    count++;
}

geo::Shape::~Shape() {}

bool geo::Circle::operator==(const Circle &other) const {
    return radius == other.radius;
}

void geo::Shape::reset() {
    this->größe_ = 0;
    name_.clear();
}

int main(int argc, char **argv) {
    geo::Circle c(2.0);
    auto a = c.area();
    std::vector<int> v;
    v.push_back(geo::maxOf(1, 2));
    return helper(argc, a);
}
