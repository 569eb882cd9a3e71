import type { PublicLink } from "../../server/site/links.server.ts";

const LOGO_SIZE = 40;

/** The /links page's cards: a logo when the link has one (no empty box otherwise), the name, the description. */
export function FriendLinkCards({ links }: { links: ReadonlyArray<PublicLink> }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {links.map((link) => (
        <li key={link.id} className="flex items-start gap-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
          {/* No logo, no box: the name starts the card. */}
          {link.logoUrl && (
            <img
              src={link.logoUrl}
              alt=""
              width={LOGO_SIZE}
              height={LOGO_SIZE}
              loading="lazy"
              decoding="async"
              className="h-10 w-10 shrink-0 rounded object-cover"
            />
          )}
          <div className="min-w-0">
            <a
              href={link.url}
              rel="noopener noreferrer"
              className="font-semibold text-blue-800 hover:underline dark:text-blue-300"
            >
              {link.name}
            </a>
            {link.description && <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{link.description}</p>}
          </div>
        </li>
      ))}
    </ul>
  );
}
