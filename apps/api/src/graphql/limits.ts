import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isListType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
}

/** Fields that do real work per call; everything else costs 1. */
const FIELD_COST: Readonly<Record<string, number>> = {
  ragAnswer: 50,
  search: 10,
  expandGraph: 10,
  ingestDocuments: 100,
  refreshDocument: 100,
  deleteDocument: 10,
};
/** Assumed size of a list whose size no argument states. */
const DEFAULT_LIST_SIZE = 10;
const SIZE_ARGUMENTS = ['first', 'k', 'topK'];

/** Apollo files every validation error under GRAPHQL_VALIDATION_FAILED; `limit` says it was ours. */
const tooComplex = (limit: 'depth' | 'aliases' | 'cost', message: string) =>
  new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', limit } });

/**
 * Apollo Server has no depth or cost limit of its own; these validation rules are ours. One
 * request may nest at most `maxDepth` levels, use at most `maxAliases` aliases (the cheap way to
 * run an expensive field many times in one request), and have a static cost of at most `maxCost`:
 * each field costs 1 or its weight above, times the size of every list it is nested in (the list's
 * `first`/`k`/`topK` argument when given, else 10). Fragments are followed, cycles are not.
 */
export function limitRules(limits: QueryLimits): ValidationRule[] {
  return [
    (context: ValidationContext) => ({
      Document(document) {
        const schema = context.getSchema();
        const fragments = new Map<string, FragmentDefinitionNode>();
        for (const definition of document.definitions)
          if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
        let aliases = 0;
        for (const definition of document.definitions) {
          if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
          const root =
            definition.operation === 'mutation'
              ? schema.getMutationType()
              : definition.operation === 'subscription'
                ? schema.getSubscriptionType()
                : schema.getQueryType();
          if (!root) continue;
          const walk = new Walk(fragments);
          const depth = walk.depth(definition.selectionSet, new Set());
          if (depth > limits.maxDepth) {
            context.reportError(
              tooComplex('depth', `query depth ${depth} exceeds the limit of ${limits.maxDepth}`),
            );
          }
          const cost = walk.cost(definition.selectionSet, root, new Set());
          if (cost > limits.maxCost) {
            context.reportError(
              tooComplex('cost', `query cost ${cost} exceeds the limit of ${limits.maxCost}`),
            );
          }
          aliases += walk.aliases(definition.selectionSet, new Set());
        }
        if (aliases > limits.maxAliases) {
          context.reportError(
            tooComplex('aliases', `${aliases} aliases exceed the limit of ${limits.maxAliases}`),
          );
        }
      },
    }),
  ];
}

class Walk {
  constructor(private readonly fragments: Map<string, FragmentDefinitionNode>) {}

  /** Fields of a selection set, with fragments inlined (each fragment once per path). */
  private *fields(selectionSet: SelectionSetNode, seen: Set<string>): Generator<FieldNode> {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) yield selection;
      else if (selection.kind === Kind.INLINE_FRAGMENT) yield* this.fields(selection.selectionSet, seen);
      else {
        const name = selection.name.value;
        const fragment = this.fragments.get(name);
        if (!fragment || seen.has(name)) continue;
        yield* this.fields(fragment.selectionSet, new Set([...seen, name]));
      }
    }
  }

  depth(selectionSet: SelectionSetNode, seen: Set<string>): number {
    let deepest = 0;
    for (const field of this.fields(selectionSet, seen)) {
      // __schema and __type are switched by Apollo's `introspection` and bounded by graphql-js's
      // own MaxIntrospectionDepthRule; an explorer's introspection query nests 15 levels.
      if (field.name.value.startsWith('__')) {
        deepest = Math.max(deepest, 1);
        continue;
      }
      const below = field.selectionSet ? this.depth(field.selectionSet, seen) : 0;
      deepest = Math.max(deepest, 1 + below);
    }
    return deepest;
  }

  aliases(selectionSet: SelectionSetNode, seen: Set<string>): number {
    let count = 0;
    for (const field of this.fields(selectionSet, seen)) {
      if (field.alias) count++;
      if (field.selectionSet) count += this.aliases(field.selectionSet, seen);
    }
    return count;
  }

  cost(selectionSet: SelectionSetNode, parent: GraphQLNamedType, seen: Set<string>): number {
    let total = 0;
    for (const field of this.fields(selectionSet, seen)) {
      const definition = isObjectType(parent) ? parent.getFields()[field.name.value] : undefined;
      const own = FIELD_COST[field.name.value] ?? 1;
      if (!definition || !field.selectionSet) {
        total += own;
        continue;
      }
      const list = isListType(getNullableType(definition.type));
      const size = list ? this.listSize(field) : 1;
      total += own + size * this.cost(field.selectionSet, getNamedType(definition.type), seen);
    }
    return total;
  }

  /** A literal size argument; a variable's value is not known at validation time, so the default. */
  private listSize(field: FieldNode): number {
    const argument = field.arguments?.find((candidate) => SIZE_ARGUMENTS.includes(candidate.name.value));
    return argument?.value.kind === Kind.INT ? Math.max(1, Number(argument.value.value)) : DEFAULT_LIST_SIZE;
  }
}
