-- Sample file exercising every Lua construct the extractor knows.

local json = require("json")
local util = require "lib.util"

--- MAX_SIZE is the largest size.
MAX_SIZE = 10
local _cache = {}
--- Größe und Zähler (non-ASCII doc).
local width, count = 3, 0

--- A shape class.
-- It has an area.
local Shape = {}
Shape.__index = Shape
Shape.DEFAULT = "shape"

--- Make a shape.
-- @param name string
function Shape.new(name, sides)
  local self = setmetatable({}, Shape)
  self.name = name
  return self
end

--- The area.
function Shape:area()
  return util.compute(self.sides, json.encode(self))
end

function Shape.__add(a, b)
  return Shape.new(a.name .. b.name)
end

-- Global function.
function helper(x)
  print(x)
end

local function private_helper(...)
  return helper(...)
end

local M = {}

M.VERSION = "1.0"

--- Exported function.
M.run = function(opts)
  local inner = function() return 1 end
  return private_helper(opts)
end

function M.config.load(path)
  return io.open(path)
end

local Circle = setmetatable({}, { __index = Shape })

return M
