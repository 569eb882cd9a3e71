import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE } from "./locale.ts";

/**
 * Remembers the language of a page opened under `/en/…` or `/zh/…`: sets the `locale` cookie
 * (the one the language switcher sets, `localeCookieHeader`) to the prefix's language when it
 * says something else, so a bare address typed in or an old unprefixed link answers in the
 * language the reader was reading. Runs in the browser, in the head of every document, and not
 * on the server: a Set-Cookie on a public page would keep CDNs from storing it for every reader
 * without the cookie (crawlers, first visits). docs/decisions/003-locale-order.md, addendum.
 */
export const LOCALE_MEMORY_SCRIPT = `(function(){try{var m=/^\\/(en|zh)(?:\\/|$)/.exec(location.pathname);if(!m)return;var c=/(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)/.exec(document.cookie);if(c?c[1].trim()===m[1]:false)return;document.cookie="${LOCALE_COOKIE}="+m[1]+"; Max-Age=${LOCALE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax"+(location.protocol==="https:"?"; Secure":"");}catch(e){}})();`;
