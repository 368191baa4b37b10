/**
 * A virtualised list of fixed-height rows: only the rows in view (plus a few) are in the DOM, so
 * 100k events or a journal growing 50 entries a second costs the same to draw as 30 rows.
 * Live lists grow at the front (newest first): while the user is scrolled down or a row has the
 * focus, the rows in view keep their place (the scroll position moves by the rows added above);
 * at the top with nothing focused, the newest rows come in at the top.
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
  /** The row the user is on (the focused one, else the top one in view) and its offset in view. */
  const anchor = useRef<{ item: T; y: number } | null>(null);
  const windowRef = useRef<HTMLDivElement>(null);
  /**
   * Items changed: where the anchor row keeps its place, unless the user is at the top with no
   * focus. Worked out here, before the rows are drawn, so the window drawn is the one around the
   * anchor: a batch larger than the window (a page starved of frames under load draws 60 arrivals
   * at once) then never drops the focused row from the DOM, which would lose the focus and, at
   * the top of the list, the anchor with it (the rows in view would jump).
   */
  const seen = useRef(items);
  const held = useRef<number | null>(null);
  if (seen.current !== items) {
    seen.current = items;
    const el = box.current;
    const a = anchor.current;
    if (el && a && items[0] !== undefined) {
      const active = (el.getRootNode() as Document | ShadowRoot).activeElement;
      const at = el.scrollTop > 0 || (active !== null && el.contains(active)) ? items.indexOf(a.item) : -1;
      if (at >= 0) held.current = Math.max(0, at * ROW_HEIGHT - a.y);
    }
  }
  const viewTop = held.current ?? top;
  const first = Math.max(0, Math.floor(viewTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((viewTop + height) / ROW_HEIGHT) + OVERSCAN);
  const focusedIndex = (el: HTMLDivElement): number => {
    const active = (el.getRootNode() as Document | ShadowRoot).activeElement;
    if (!active || !el.contains(active)) return -1;
    const i = [...(windowRef.current?.children ?? [])].findIndex((c) => c === active || c.contains(active));
    return i < 0 ? -1 : first + i;
  };
  // The place worked out above, applied to the scroll box (drawn with the rows around it already).
  useLayoutEffect(() => {
    const el = box.current;
    const want = held.current;
    held.current = null;
    if (!el || want === null) return;
    if (want !== el.scrollTop) el.scrollTop = want;
    setTop(el.scrollTop);
  }, [items]);
  /** Where the user is now: after every render, and when the focus moves onto a row. */
  const mark = () => {
    const el = box.current;
    if (!el) return;
    const focused = focusedIndex(el);
    const i = focused >= 0 ? focused : Math.min(items.length - 1, Math.floor(el.scrollTop / ROW_HEIGHT));
    anchor.current = i >= 0 ? { item: items[i]!, y: i * ROW_HEIGHT - el.scrollTop } : null;
  };
  useLayoutEffect(mark);
  const rows: ComponentChild[] = [];
  for (let i = first; i < last; i++) rows.push(row(items[i]!, i));
  return (
    <div ref={box} class={`vrows ${rest.class ?? ''}`} role="rowgroup" aria-label={label} data-count={items.length} onFocusIn={mark}>
      <div class="vrows-space" style={{ height: `${items.length * ROW_HEIGHT}px` }}>
        <div ref={windowRef} class="vrows-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
