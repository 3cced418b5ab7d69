# Sample file exercising every Ruby construct the extractor knows.

require "json"
require_relative "lib/helper"

# MAX_SIZE is the largest size.
MAX_SIZE = 10
$global_count = 0

# Utilities lives here.
module Utilities
  VERSION = "1.0"

  # Format a value.
  def self.format(value)
    value.to_s.strip
  end

  module_function

  def helper(x)
    puts(x)
  end
end

# Comparable things.
module Sizable
  def size
    raise NotImplementedError
  end
end

# A shape.
class Shape < Base
  include Comparable
  extend Sizable
  prepend Utilities

  attr_reader :name, :sides
  attr_accessor :größe

  DEFAULT = "shape"
  @@count = 0

  # Make a shape.
  def initialize(name, sides = 0)
    @name = name
    @sides = sides
    super()
  end

  # Compare by area.
  def <=>(other)
    area <=> other.area
  end

  def ==(other)
    name == other.name
  end

  def area
    compute(@sides, Utilities.format(name))
  end

  def self.create(kind)
    new(kind)
  end

  class << self
    def registry
      @registry ||= {}
    end
  end

  protected

  def compute(a, b)
    a * b.length
  end

  private

  def secret
    42
  end

  public

  def visible; end

  def hidden; end
  private :hidden

  # Nested options.
  class Options < Struct.new(:a, :b)
  end
end

module Outer
  module Inner
    class Deep::Leaf
    end
  end
end

def top_level(arg)
  Shape.new(arg).area
end

alias_method :old_area, :top_level
