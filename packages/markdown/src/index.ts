/** The markdown document model every package shares: filled in by the markdown refactoring of issue 19. */
export {}
