/** A text with the words a search matched marked (<mark>), as the results show them. */
import { highlightSegments } from '../../../shared/search';

export function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <>
      {highlightSegments(text, terms).map((segment, index) =>
        segment.match ? (
          <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-slate-950">
            {segment.text}
          </mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}
