/** The SSRF-guarded fetch of user-given URLs: filled in by the package-boundaries refactoring of issue 19. */
export {}
