/**
 * Hash routes: #/ catalogue, #/play/ENV/TASK?seed=N, #/watch/ENV/TASK?seed=N (both take &from=ID&at=K
 * to continue another episode from step K), #/resume/ID, #/episodes, #/replay/ID?step=N,
 * #/compare/ID/ID…?step=N or #/compare?task=TASK, #/shared/<episode>?step=N (a share link), #/gallery;
 * studies: #/studies (the list), #/study/NAME, #/settings, #/researcher (a study's results);
 * scores: #/scores;
 * annotation: #/annotate/ENV/TASK[/EPISODE?step=N], #/check/ENV/TASK, #/agreement/ENV/TASK, #/rate/ENV/TASK.
 */
export interface Route {
  name: 'catalogue' | 'play' | 'watch' | 'resume' | 'episodes' | 'replay' | 'bench' | 'compare' | 'shared' | 'gallery' | 'studies' | 'study' | 'settings' | 'researcher' | 'annotate' | 'check' | 'agreement' | 'rate' | 'scores';
  params: string[];
  query: URLSearchParams;
}

function parse(hash: string): Route {
  const [path, search = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  // A malformed escape (#/resume/%) is kept as typed instead of breaking the page; the view then says it is unknown.
  const decode = (part: string): string => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const parts = path.split('/').filter(Boolean).map(decode);
  const query = new URLSearchParams(search);
  const names: Route['name'][] = ['play', 'watch', 'resume', 'episodes', 'replay', 'bench', 'compare', 'shared', 'gallery', 'studies', 'study', 'settings', 'researcher', 'annotate', 'check', 'agreement', 'rate', 'scores'];
  // A study link may also be ?study=NAME without a hash (e.g. a JATOS component's URL).
  const studyInSearch = new URLSearchParams(location.search).get('study');
  if (parts.length === 0 && studyInSearch) return { name: 'study', params: [studyInSearch], query };
  // Inside JATOS (its study URLs are /publix/…) the page is a study; jatos.js names it.
  if (parts.length === 0 && location.pathname.includes('/publix/')) return { name: 'study', params: [], query };
  const name = names.find((n) => n === parts[0]) ?? 'catalogue';
  return { name, params: name === 'catalogue' ? [] : parts.slice(1), query };
}

/** Each kind of page's title until its view names it more precisely (setTitle). */
const PAGE_TITLES: Record<Route['name'], string> = {
  catalogue: 'Tasks',
  play: 'Play',
  watch: 'Watch',
  resume: 'Resume an episode',
  episodes: 'Episodes',
  replay: 'Replay',
  bench: 'Benchmarks',
  compare: 'Compare runs',
  shared: 'Shared run',
  gallery: 'Gallery',
  studies: 'Studies',
  study: 'Study',
  settings: 'Settings',
  researcher: 'Study results',
  annotate: 'Annotate subgoals',
  check: 'Check subgoals by playing',
  agreement: 'Subgoal agreement',
  rate: 'Rate episodes',
  scores: 'Scores',
};

function enter(route: Route): Route {
  // Set before the page's view is made, so a view that names itself later wins.
  setTitle(PAGE_TITLES[route.name]);
  return route;
}

export const router = $state({ route: enter(parse(location.hash)) });

window.addEventListener('hashchange', () => {
  router.route = enter(parse(location.hash));
});

export function href(...parts: (string | number)[]): string {
  return `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;
}

export function navigate(hash: string): void {
  location.hash = hash;
}

/** Every page names itself: "What · agentplay". */
export function setTitle(what: string): void {
  document.title = `${what} · agentplay`;
}
