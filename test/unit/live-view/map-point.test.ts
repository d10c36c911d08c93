import { describe, expect, it } from 'vitest';
import { MAP_POINT_SOURCE } from '../../../server/products/live-view/map-point';

type Frame = { deviceWidth: number; deviceHeight: number; offsetTop?: number };
// The page's own code, run as the page runs it.
const mapPoint = new Function(`${MAP_POINT_SOURCE}; return mapPoint;`)() as (
  x: number,
  y: number,
  shownWidth: number,
  shownHeight: number,
  frame: Frame,
) => { x: number; y: number };

describe("the live view's point mapping", () => {
  const frame = { deviceWidth: 1280, deviceHeight: 800 };

  it('maps a frame shown at its size one to one', () => {
    expect(mapPoint(100, 50, 1280, 800, frame)).toEqual({ x: 100, y: 50 });
  });

  it('scales a frame shown smaller or larger back to CSS pixels', () => {
    expect(mapPoint(320, 200, 640, 400, frame)).toEqual({ x: 640, y: 400 });
    expect(mapPoint(500, 250, 2560, 1600, frame)).toEqual({ x: 250, y: 125 });
  });

  it('takes the browser controls above the page off', () => {
    expect(mapPoint(100, 150, 390, 900, { deviceWidth: 390, deviceHeight: 844, offsetTop: 56 })).toEqual({
      x: 100,
      y: 94,
    });
  });

  it('keeps points on the page', () => {
    expect(mapPoint(-10, 900, 1280, 800, frame)).toEqual({ x: 0, y: 800 });
    expect(mapPoint(10, 10, 0, 0, frame)).toEqual({ x: 0, y: 0 });
  });
});
