import type { ApolloServerPlugin } from '@apollo/server';
import { graphqlOperationDuration } from '@agentic-rag/core';
import { Kind, type OperationDefinitionNode } from 'graphql';

/**
 * A GraphQL operation's latency by operation type and root field, never by operation name: a
 * client chooses names freely, while root fields come from the schema. `operation` is only set
 * once the document has passed validation, so an unparsable or invalid request is one
 * `unknown` series, whatever it contains.
 */
export const operationMetrics: ApolloServerPlugin = {
  async requestDidStart() {
    const started = performance.now();
    return {
      async willSendResponse({ operation, errors }) {
        graphqlOperationDuration.observe(
          {
            operation: operation?.operation ?? 'unknown',
            field: rootField(operation),
            outcome: errors && errors.length > 0 ? 'error' : 'ok',
          },
          (performance.now() - started) / 1000,
        );
      },
    };
  },
};

/** The one root field an operation selects, `multiple` when it selects several. */
function rootField(operation: OperationDefinitionNode | undefined): string {
  if (!operation) return 'unknown';
  const names = new Set(
    operation.selectionSet.selections.flatMap((selection) =>
      selection.kind === Kind.FIELD ? [selection.name.value] : ['fragment'],
    ),
  );
  if (names.size === 1) return [...names][0]!;
  return names.size === 0 ? 'unknown' : 'multiple';
}
