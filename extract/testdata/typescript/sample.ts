import { EventEmitter } from "events";
import type { Readable } from "stream";
import fs = require("fs");

/** Version of the library. */
export const VERSION: string = "1.0";

let cache: Map<string, Shape> = new Map();

/** Shape is anything with an area. */
export interface Shape extends Named, Comparable<Shape> {
  /** area in square units */
  readonly area: number;
  describe(prefix?: string): string;
  [key: string]: unknown;
}

interface Named {
  name: string;
}

/** ID is an identifier. */
export type ID = string | number;

/** Color lists colours. */
export enum Color {
  Red,
  /** Green is nice. */
  Green = "green",
}

declare const enum Flags { None = 0 }

/** Geometry groups shapes. */
export namespace Geometry {
  export const PI = 3.14;

  /** Circle is round. */
  export class Circle implements Shape {
    name = "circle";
    constructor(private radius: number) {}
    get area(): number {
      return Geometry.PI * this.radius ** 2;
    }
    describe(prefix = ""): string {
      return prefix + this.name;
    }
  }
}

/** Base is abstract. */
@sealed
export abstract class Base<T> extends EventEmitter implements Named, Shape {
  public name: string = "base";
  protected static count: number = 0;
  private readonly items: T[] = [];
  #hidden = true;
  abstract get area(): number;

  /** Describes the thing. */
  @log("x")
  describe(prefix?: string): string {
    Base.count++;
    this.emit("describe", prefix);
    return format(this.name, prefix);
  }

  protected abstract build(input: T): Shape;
  private reset(): void {
    this.items.length = 0;
  }
}

/** format joins parts. */
export function format(name: string, prefix?: string): string;
export function format(name: string, prefix = ""): string {
  return `${prefix}${name}`;
}

export const 変数 = <T,>(value: T): T[] => [value];

declare module "ambient" {
  export function ambientFn(): void;
}

function sealed(ctor: Function): void {}
function log(msg: string) {
  return (target: object, key: string) => console.log(msg, key);
}

export default Base;

/** Point is an object type. */
type Point = { x: number; readonly y?: number; move(dx: number): Point };

/** parse reads a value. */
export function parse(input: string): number;
export function parse(input: Buffer): number;
export function parse(input: string | Buffer): number {
  return Number(input.toString());
}

/** settings are the defaults. */
export const settings = {
  retries: 3,
  backoff: (n: number): number => n * 2,
} as const;
