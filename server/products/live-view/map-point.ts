/**
 * The live view page's mapping from a point on the shown frame to the tab's CSS pixels, as
 * JavaScript source: the page runs it (it is inlined in the page's script) and the unit tests run
 * the very same text. The frame is the page's viewport scaled evenly (`deviceWidth` CSS pixels
 * wide, shown `shownWidth` pixels wide), below `offsetTop` pixels of browser controls (mobile
 * emulation; 0 on desktop). Points outside the page are pulled to its edge.
 */
export const MAP_POINT_SOURCE = `function mapPoint(x, y, shownWidth, shownHeight, frame) {
  var zoom = shownWidth / frame.deviceWidth;
  if (!(zoom > 0) || !(shownHeight > 0)) return { x: 0, y: 0 };
  var pageX = x / zoom;
  var pageY = y / zoom - (frame.offsetTop || 0);
  return {
    x: Math.min(Math.max(pageX, 0), frame.deviceWidth),
    y: Math.min(Math.max(pageY, 0), frame.deviceHeight),
  };
}`;
