/** A soak run's record of itself: a run with a thousand failures of one kind stays a readable page and a one-line headline. */
import { soakSection } from './results-page';

test('a failed run lists its first violations and counts the rest, in its section and its headline', () => {
  const violations = Array.from({ length: 1_113 }, (_, i) => `unaccounted 500 internal_error on POST /publish #${i}`);
  const section = soakSection({ command: 'npm run soak -- --minutes 60', summary: '332532 requests in 60 min\n| table |', violations });
  expect(section.markdown).toContain('**1113 violation(s)**');
  expect(section.markdown).toContain('- unaccounted 500 internal_error on POST /publish #19\n- … and 1093 more');
  expect(section.markdown).not.toContain('#20\n');
  expect(section.figure).toBe('332532 requests in 60 min; 1113 check(s) failed: unaccounted 500 internal_error on POST /publish #0; unaccounted 500 internal_error on POST /publish #1; unaccounted 500 internal_error on POST /publish #2; … and 1110 more');
});

test('a clean run says so', () => {
  const section = soakSection({ command: 'npm run soak', summary: '406827 requests in 60 min', violations: [] });
  expect(section.figure).toBe('406827 requests in 60 min; no invariant violated, every route succeeded');
  expect(section.markdown).toContain('No violations.');
});
