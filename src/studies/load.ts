/** Finding a study file: bundled beside the app (`studies/<name>.json`) or given by URL (`?src=`). */
import { parseStudy, type Study } from '../../runtime/studies/schema.ts';
import { checkStudyTasks } from '../../runtime/studies/catalogue.ts';

export class StudyFileError extends Error {
  constructor(
    message: string,
    readonly errors: string[] = [],
    /** No file is there at all (a mistyped name or link), as opposed to a file with mistakes. */
    readonly notFound = false,
  ) {
    super(message);
  }
}

export function studyUrl(name: string, params: URLSearchParams): string {
  const src = params.get('src');
  if (src) return new URL(src, document.baseURI).href;
  if (!name) throw new StudyFileError('No study is named: open #/study/NAME (for studies/NAME.json beside the app) or #/study/x?src=URL.');
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new StudyFileError(`"${name}" is not a study name (letters, digits, ".", "_", "-").`);
  return new URL(`studies/${name}.json`, document.baseURI).href;
}

export async function loadStudy(url: string): Promise<Study> {
  let response: Response;
  try {
    response = await fetch(url, { cache: 'no-cache' });
  } catch (e) {
    throw new StudyFileError(`Could not fetch the study file ${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
  // A static server answers a missing file with 404, or (a single-page app's fallback) with the app's own HTML page.
  const html = (response.headers.get('content-type') ?? '').includes('text/html');
  if (response.status === 404 || (response.ok && html)) throw new StudyFileError(`There is no study file at ${url}: check the study's name or link.`, [], true);
  if (!response.ok) throw new StudyFileError(`Could not fetch the study file ${url}: HTTP ${response.status}`);
  const parsed = parseStudy(await response.text());
  if (!parsed.ok) throw new StudyFileError(`The study file ${url} is not valid:`, parsed.errors);
  // Every task must exist here, or a participant would reach one that cannot start.
  const unknown = await checkStudyTasks(parsed.study);
  if (unknown.length > 0) throw new StudyFileError(`The study file ${url} names tasks this app does not have:`, unknown);
  return parsed.study;
}
