/**
 * Reading an action from text, as pddl_env.text_to_action does (README.md, Upstream):
 * lowercase, tokenize like nltk.word_tokenize; the operator is the first token that
 * names an operator with at least one applicable grounding in the current state
 * (pddlgym's dynamic action space); the arguments are the tokens that name objects,
 * in order, cut to the operator's arity. Too few arguments, or no operator: null.
 * Whether the resulting action is applicable is the caller's question.
 */
import type { GroundAction, Grounder, StateView } from './grounding.ts';
import { wordTokenize } from './text.ts';

export function parseAction(g: Grounder, view: StateView, text: string): GroundAction | null {
  const tokens = wordTokenize(text.toLowerCase());
  let action = -1;
  const tried = new Set<number>();
  for (const t of tokens) {
    const i = g.actionIds.get(t);
    if (i === undefined || tried.has(i)) continue;
    tried.add(i);
    if (g.hasApplicable(i, view)) {
      action = i;
      break;
    }
  }
  if (action === -1) return null;
  const arity = g.actions[action].arity;
  const args: number[] = [];
  for (const t of tokens) {
    if (args.length === arity) break;
    const o = g.objectIds.get(t);
    if (o !== undefined) args.push(o);
  }
  return args.length < arity ? null : { action, args };
}
