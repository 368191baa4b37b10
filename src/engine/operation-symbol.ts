/** The mark of a GraphQL operation handler (`graphql.query(…)`), apart so that types.ts can name it. */
export const kGraphqlOperation = Symbol.for('mockyard.graphqlOperation');
