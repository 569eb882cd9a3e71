/** Characters of a search query that are read (the search box allows no more); the rest is ignored. */
export const MAX_QUERY_LENGTH = 200;
