/**
 * A virtualised list of fixed-height rows: only the rows in view (plus a few) are in the DOM, so
 * 100k events or a journal growing 50 entries a second costs the same to draw as 30 rows.
 */
import type { ComponentChild } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export const ROW_HEIGHT = 28;
const OVERSCAN = 8;

export interface VirtualRowsProps<T> {
  items: readonly T[];
  row: (item: T, index: number) => ComponentChild;
  /** Class of the scrolling box. */
  class?: string;
  label: string;
}

export function VirtualRows<T>({ items, row, label, ...rest }: VirtualRowsProps<T>) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setHeight(el.clientHeight || 600);
    const ro = new ResizeObserver(() => setHeight(el.clientHeight || 600));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setTop(el.scrollTop);
      });
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      el.removeEventListener('scroll', onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
  const rows: ComponentChild[] = [];
  for (let i = first; i < last; i++) rows.push(row(items[i]!, i));
  return (
    <div ref={box} class={`vrows ${rest.class ?? ''}`} role="rowgroup" aria-label={label} data-count={items.length}>
      <div class="vrows-space" style={{ height: `${items.length * ROW_HEIGHT}px` }}>
        <div class="vrows-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
