/* Pith reader header: the content payload's title, byline, site and date from the host's page metadata. */

/**
 * The reader header's fields of the content payload (READER.md) from the host's page
 * metadata (the `metadata` of its `clean` reply, host/pith/pipeline/metadata: the one computation
 * every output shares): title, byline (the authors, comma-separated), site, published;
 * '' for what the host did not find (or an older host that sends none).
 */
export function readerHeader(metadata) {
  const m = metadata !== null && typeof metadata === 'object' ? metadata : {};
  const str = (v) => (typeof v === 'string' ? v : '');
  const authors = Array.isArray(m.authors) ? m.authors.filter((a) => typeof a === 'string' && a) : [];
  return { title: str(m.title), byline: authors.join(', '), site: str(m.site), published: str(m.published) };
}
