import { type KeyboardEvent, type PointerEvent, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLeanDocument } from "../lean/lean-context.tsx";
import { localizePath } from "../lib/i18n/localized-path.ts";
import { useLocalePrefix } from "../lib/i18n/use-locale-prefix.ts";
import type { MediaImage } from "../lib/media.ts";

export interface CarouselSlide {
  id: string;
  title: string;
  imageUrl: string;
  imageAlt: string;
  linkUrl: string | null;
  /** srcset and size when the image was uploaded here. */
  image?: MediaImage | null;
}

/** How long a slide stays before the next one, when playing. */
export const SLIDE_INTERVAL_MS = 6_000;
/** A horizontal swipe longer than this (px) changes the slide. */
const SWIPE_PX = 40;

/** The slide after moving `step` from `index` in a ring of `count`. */
export function wrapIndex(index: number, step: number, count: number): number {
  return (((index + step) % count) + count) % count;
}

/** The home page carousel: the app's (React) or, in a lean document, the scroll-snap one. */
export function Carousel({ slides }: { slides: CarouselSlide[] }) {
  const lean = useLeanDocument();
  if (slides.length === 0) return null;
  return lean ? <ScrollSnapCarousel slides={slides} /> : <AppCarousel slides={slides} />;
}

/**
 * The home page carousel (WAI-ARIA carousel pattern): previous/next and one
 * button per slide, arrow keys, swipe, and a pause button. It plays by itself
 * only when the reader has not asked for reduced motion, and pauses while the
 * pointer is over it or focus is inside it. All slides are server-rendered;
 * the first image loads eagerly, the others lazily; the box has a fixed aspect
 * ratio so nothing moves when images arrive.
 */
function AppCarousel({ slides }: { slides: CarouselSlide[] }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(0);
  // Starts paused until the browser says motion is fine (and on the server).
  const [playing, setPlaying] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const swipeFrom = useRef<number | null>(null);
  const count = slides.length;

  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    setPlaying(!query.matches);
  }, []);

  const go = useCallback((step: number) => setCurrent((i) => wrapIndex(i, step, count)), [count]);

  const running = playing && !hovered && !focused && count > 1;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => go(1), SLIDE_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [running, go]);

  if (count === 0) return null;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowLeft") go(-1);
    else if (event.key === "ArrowRight") go(1);
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent) => {
    swipeFrom.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    if (swipeFrom.current === null) return;
    const dx = event.clientX - swipeFrom.current;
    swipeFrom.current = null;
    if (Math.abs(dx) >= SWIPE_PX) go(dx < 0 ? 1 : -1);
  };

  const button =
    "rounded-full bg-white/80 px-3 py-1 text-sm font-medium text-zinc-900 shadow hover:bg-white focus-visible:outline-2 focus-visible:outline-blue-600 dark:bg-zinc-900/80 dark:text-zinc-100";

  return (
    <section
      aria-roledescription="carousel"
      aria-label={t("carousel.label")}
      className="mb-10"
      data-testid="carousel"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
      onKeyDown={onKeyDown}
    >
      <div
        className="relative aspect-[16/6] touch-pan-y overflow-hidden rounded-lg bg-zinc-100 dark:bg-zinc-800"
        aria-live={running ? "off" : "polite"}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          swipeFrom.current = null;
        }}
      >
        {slides.map((slide, i) => (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern makes each slide a group; a fieldset is for form controls.
          <div
            key={slide.id}
            role="group"
            aria-roledescription={t("carousel.slide")}
            aria-label={t("carousel.slideOf", { index: i + 1, count })}
            aria-hidden={i !== current}
            inert={i !== current}
            className={`absolute inset-0 transition-opacity duration-500 motion-reduce:transition-none ${
              i === current ? "opacity-100" : "pointer-events-none opacity-0"
            }`}
          >
            <SlideBody slide={slide} index={i} />
          </div>
        ))}
      </div>
      {count > 1 && (
        <div className="mt-3 flex flex-wrap items-center justify-center gap-2">
          <button type="button" className={button} onClick={() => go(-1)} aria-label={t("carousel.previous")}>
            ‹
          </button>
          {slides.map((slide, i) => (
            <button
              key={slide.id}
              type="button"
              className={`h-3 w-3 rounded-full border border-zinc-500 ${i === current ? "bg-zinc-700 dark:bg-zinc-200" : ""}`}
              aria-label={t("carousel.goTo", { index: i + 1 })}
              aria-current={i === current ? "true" : undefined}
              onClick={() => setCurrent(i)}
            />
          ))}
          <button type="button" className={button} onClick={() => go(1)} aria-label={t("carousel.next")}>
            ›
          </button>
          <button type="button" className={button} onClick={() => setPlaying((p) => !p)} aria-pressed={!playing}>
            {playing ? t("carousel.pause") : t("carousel.play")}
          </button>
        </div>
      )}
    </section>
  );
}

function SlideTitle({ title }: { title: string }) {
  return (
    <p className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/70 to-transparent px-4 pt-10 pb-3 text-lg font-semibold text-white">
      {title}
    </p>
  );
}

/** A slide's picture, title and link (the same in both carousels). */
function SlideBody({ slide, index }: { slide: CarouselSlide; index: number }) {
  // A slide leading to one of the site's pages leads to it in the page's language.
  const prefix = useLocalePrefix();
  const image = (
    <img
      src={slide.image?.src ?? slide.imageUrl}
      srcSet={slide.image?.srcSet || undefined}
      sizes={slide.image?.srcSet ? "(min-width: 64rem) 64rem, 100vw" : undefined}
      width={slide.image?.width}
      height={slide.image?.height}
      alt={slide.imageAlt}
      className="h-full w-full object-cover"
      loading={index === 0 ? "eager" : "lazy"}
      draggable={false}
    />
  );
  return slide.linkUrl ? (
    <a href={localizePath(slide.linkUrl, prefix)} className="block h-full">
      {image}
      {slide.title && <SlideTitle title={slide.title} />}
    </a>
  ) : (
    <>
      {image}
      {slide.title && <SlideTitle title={slide.title} />}
    </>
  );
}

/**
 * The carousel of a lean document (decision 024). Without script it is a row of slides the
 * reader scrolls through (CSS scroll snap), every slide reachable. The reader script
 * (app/lean/reader.ts) turns it into the same WAI-ARIA carousel as the app's: it shows the
 * controls, hides the other slides from assistive technology, moves by buttons, keys and
 * swipes, and plays by itself unless the reader asked for reduced motion.
 */
function ScrollSnapCarousel({ slides }: { slides: CarouselSlide[] }) {
  const { t } = useTranslation();
  const count = slides.length;
  const button =
    "rounded-full bg-white/80 px-3 py-1 text-sm font-medium text-zinc-900 shadow hover:bg-white focus-visible:outline-2 focus-visible:outline-blue-600 dark:bg-zinc-900/80 dark:text-zinc-100";
  return (
    <section
      aria-roledescription="carousel"
      aria-label={t("carousel.label")}
      className="mb-10"
      data-testid="carousel"
      data-carousel="scroll"
    >
      <div
        className="flex aspect-[16/6] snap-x snap-mandatory overflow-x-auto rounded-lg bg-zinc-100 [scrollbar-width:thin] dark:bg-zinc-800"
        aria-live="polite"
        data-slide-viewport=""
      >
        {slides.map((slide, i) => (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern makes each slide a group; a fieldset is for form controls.
          <div
            key={slide.id}
            role="group"
            aria-roledescription={t("carousel.slide")}
            aria-label={t("carousel.slideOf", { index: i + 1, count })}
            className="relative h-full w-full shrink-0 snap-start"
            data-slide=""
          >
            <SlideBody slide={slide} index={i} />
          </div>
        ))}
      </div>
      {count > 1 && (
        // Buttons that need the script stay hidden until it runs.
        <div className="mt-3 flex flex-wrap items-center justify-center gap-2" hidden data-slide-controls="">
          <button type="button" className={button} aria-label={t("carousel.previous")} data-slide-prev="">
            ‹
          </button>
          {slides.map((slide, i) => (
            <button
              key={slide.id}
              type="button"
              className={`h-3 w-3 rounded-full border border-zinc-500 ${i === 0 ? "bg-zinc-700 dark:bg-zinc-200" : ""}`}
              aria-label={t("carousel.goTo", { index: i + 1 })}
              aria-current={i === 0 ? "true" : undefined}
              data-slide-dot=""
            />
          ))}
          <button type="button" className={button} aria-label={t("carousel.next")} data-slide-next="">
            ›
          </button>
          <button
            type="button"
            className={button}
            aria-pressed="true"
            data-slide-play=""
            data-label-play={t("carousel.play")}
            data-label-pause={t("carousel.pause")}
          >
            {t("carousel.play")}
          </button>
        </div>
      )}
    </section>
  );
}
