// Package comment that is not a doc for the import below.

import React, { useState as useStateHook, Component } from "react";
import * as path from "path";
import "./styles.css";
const fs = require("fs");

/** MAX_SIZE is the largest size. */
export const MAX_SIZE = 10;

let counter = 0;
var legacy = "x", other = 2;

/**
 * größe computes a size.
 * @param {number} n the input
 */
export function größe(n) {
  const local = n * 2; // not a symbol
  return helper(local);
}

function helper(value) {
  console.log(value);
  return path.join("a", value);
}

export async function* stream() {
  yield 1;
}

/** Add adds two numbers. */
export const add = (a, b) => a + b;

const Base = class {};

/** Animal is the base class. */
export default class Animal extends Base {
  /** name of the animal */
  name = "animal";
  #secret = 42;
  static count = 0;

  /** Builds an Animal. */
  constructor(name) {
    super();
    this.name = name;
    Animal.count++;
  }

  get label() {
    return this.name.toUpperCase();
  }

  set label(v) {
    this.name = v;
  }

  #hide() {
    return this.#secret;
  }

  static create(name) {
    return new Animal(name);
  }

  speak() {
    this.#hide();
    return `${this.name} speaks`;
  }
}

/** Dog is an Animal. */
class Dog extends Animal {
  speak() {
    return super.speak() + " woof";
  }
}

/** Greeting renders a greeting. */
export function Greeting({ who }) {
  const [n, setN] = useStateHook(0);
  return (
    <div className="greeting" onClick={() => setN(n + 1)}>
      <Title text={who} />
      {n}
    </div>
  );
}

function Title(props) {
  return <h1>{props.text}</h1>;
}

export { helper, Dog as Hound };
module.exports = { Animal };

/** codes are the error codes. */
const codes = {
  /** E_TOO_LARGE is returned for a large body. */
  E_TOO_LARGE: createError("E_TOO_LARGE", 413),
  limits: { body: 1024 },
  get size() {
    return this.limits.body;
  },
  set size(v) {
    this.limits.body = v;
  },
  format(code) {
    return `${code}`;
  },
  helper,
};

Dog.prototype.fetch = function (thing) {
  return thing;
};
Dog.breeds = [];
Object.defineProperty(Dog.prototype, "legs", {
  get() {
    return 4;
  },
});
