import { type Options, selectAll } from 'css-select';
import { InvalidSelectorError } from '../../../../shared/html/clean-html';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** Matching a caller's selectors would have taken more than its step budget. */
export class SelectorBudgetError extends Error {
  override name = 'SelectorBudgetError';
}

export interface BoundedSelect {
  /** Elements of `document` the selector matches, in document order. */
  selectAll(document: Document, selector: string): Element[];
  /** Steps spent so far, over every call. */
  readonly spent: number;
}

/**
 * CSS selector matching (css-select, the engine linkedom uses) that gives up after `budget` steps,
 * a step being one node the matcher looks at. A caller's selector runs over the whole page, and
 * some selectors cost far more than the page is big: `:has()` inside `:has()`, long chains of
 * descendant or sibling combinators, `:nth-child` over wide lists. Counting the matcher's own
 * look-ups (through the adapter it reads the tree with) bounds any of them, whatever its shape,
 * without a timer. Throws SelectorBudgetError when the budget is spent, InvalidSelectorError for a
 * selector that does not parse.
 */
export function createBoundedSelect(budget: number): BoundedSelect {
  let spent = 0;
  const step = (count = 1) => {
    spent += count;
    if (spent > budget) throw new SelectorBudgetError(`selector matching took more than ${budget} steps`);
  };
  const childrenOf = (node: Node) => node.childNodes as unknown as Node[];

  const adapter: NonNullable<Options<Node, Element>['adapter']> = {
    isTag: (node): node is Element => {
      step();
      return node.nodeType === ELEMENT_NODE;
    },
    getAttributeValue: (element, name) => {
      step();
      return element.getAttribute(name) ?? undefined;
    },
    getChildren: (node) => {
      step();
      return childrenOf(node);
    },
    getName: (element) => element.localName.toLowerCase(),
    getParent: (node) => {
      step();
      return node.parentNode;
    },
    getSiblings: (node) => {
      const parent = node.parentNode;
      const siblings = parent === null ? [node] : childrenOf(parent);
      step(siblings.length);
      return siblings;
    },
    prevElementSibling: (node) => {
      step();
      return (node as Element).previousElementSibling;
    },
    getText: (node) => {
      // :contains() reads a whole subtree: each node of it is a step.
      let text = '';
      const stack = [node];
      while (stack.length > 0) {
        const next = stack.pop() as Node;
        step();
        if (next.nodeType === TEXT_NODE) text += (next as Text).data;
        else if (next.nodeType === ELEMENT_NODE) {
          const children = childrenOf(next);
          for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as Node);
        }
      }
      return text;
    },
    hasAttrib: (element, name) => {
      step();
      return element.hasAttribute(name);
    },
    removeSubsets: (nodes) => nodes.filter((node, index) => nodes.indexOf(node) === index),
  };

  return {
    selectAll(document, selector) {
      try {
        return selectAll<Node, Element>(selector, document, { adapter });
      } catch (error) {
        if (error instanceof SelectorBudgetError) throw error;
        // css-what's parse errors; matching itself throws nothing else.
        throw new InvalidSelectorError(selector, { cause: error });
      }
    },
    get spent() {
      return spent;
    },
  };
}
