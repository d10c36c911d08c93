import { h } from 'preact';

/**
 * A bar chart in SVG: one bar per item, its value in a <title> and in the table the caller shows
 * beside it, so that nothing is said by the picture alone.
 */
export function BarChart({ items, label }: { items: Array<{ name: string; value: number }>; label: string }) {
  const width = 640;
  const height = 180;
  const gap = 4;
  const top = Math.max(1, ...items.map((item) => item.value));
  const barWidth = items.length === 0 ? 0 : (width - gap * (items.length - 1)) / items.length;
  return h(
    'svg',
    { viewBox: `0 0 ${width} ${height + 20}`, role: 'img', 'aria-label': label, class: 'chart' },
    items.map((item, index) => {
      const barHeight = Math.round((item.value / top) * height);
      const x = index * (barWidth + gap);
      return h(
        'g',
        { key: item.name },
        h(
          'rect',
          {
            x,
            y: height - barHeight,
            width: barWidth,
            height: Math.max(barHeight, item.value > 0 ? 1 : 0),
            class: 'bar',
          },
          h('title', null, `${item.name}: ${item.value}`),
        ),
        items.length <= 16
          ? h(
              'text',
              { x: x + barWidth / 2, y: height + 14, 'text-anchor': 'middle', class: 'axis' },
              item.name.slice(5),
            )
          : null,
      );
    }),
  );
}
