/**
 * The stylesheet of the blocks Blocks.ts, ApiBlocks.ts and Math.ts draw (formulas, diagrams,
 * players, updates, prompts, API cards, buttons, icons, note popovers), in the theme's variables;
 * part of every published page's inline style (Theme.ts).
 */
export const blocksCss = `
/* formulas */
.markdown .math .katex{font-size:1.08em}
.markdown .math-display{display:block;margin:0 0 1.15rem;overflow-x:auto;overflow-y:hidden;padding:.25rem 0}
.markdown .math-display .katex-display{margin:0}
.markdown .math-inline{white-space:nowrap}

/* diagrams: the code until the diagram is drawn */
.markdown pre.mermaid{margin:0 0 1.15rem;padding:1rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--code-bg);font-size:.85rem;overflow-x:auto;white-space:pre}
.markdown .mermaid-diagram{margin:0 0 1.15rem;padding:1rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised);overflow-x:auto;text-align:center}
.markdown .mermaid-diagram svg{max-width:100%;height:auto}

/* players: nothing is loaded from the provider before the click */
.markdown .embed-player{border:1px solid var(--border);border-radius:var(--radius-sm);overflow:hidden;background:var(--bg-raised)}
.markdown .embed-play{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.35rem;width:100%;aspect-ratio:16/9;padding:1rem;border:0;background:linear-gradient(135deg,var(--bg-muted),var(--bg-subtle));color:var(--text);font:inherit;text-align:center;cursor:pointer}
.markdown .embed-play:hover .embed-play-icon{transform:scale(1.06)}
.markdown .embed-play-icon{display:grid;place-items:center;width:3.5rem;height:3.5rem;border-radius:50%;background:var(--primary);color:var(--primary-contrast);font-size:1.25rem;transition:transform .15s}
.markdown .embed-play-icon .fa-icon{margin-left:.15em}
.markdown .embed-provider{font-weight:650}
.markdown .embed-play .embed-url{max-width:100%}
.markdown .embed-notice{font-size:.75rem;color:var(--text-subtle)}
.markdown .embed-frame{display:block;width:100%;aspect-ratio:16/9;border:0}
.markdown .embed-open{display:block;padding:.5rem 1rem;border-top:1px solid var(--border);font-size:.8125rem;color:var(--text-muted)}
.markdown .embed-player+.embed-caption,.markdown .embed-player>.embed-caption{padding:.5rem 1rem}
.markdown .integration .embed-link{flex-wrap:wrap}
.markdown .integration-title{font-weight:600;flex:none}

/* updates (a changelog) */
.markdown .updates{margin:0 0 1.15rem}
.markdown .update{position:relative;display:grid;grid-template-columns:10rem minmax(0,1fr);gap:1.5rem;padding:0 0 2rem}
.markdown .update-meta{display:flex;flex-direction:column;align-items:flex-start;gap:.4rem;font-size:.8125rem;color:var(--text-muted);padding-top:.2rem}
.markdown .update-meta time{font-weight:600;color:var(--text)}
.markdown .update-tags{display:flex;flex-wrap:wrap;gap:.3rem}
.markdown .update-tag{padding:.05rem .5rem;border-radius:var(--radius-pill);background:var(--primary-soft);color:var(--primary-text);font-size:.75rem;font-weight:600}
.markdown .update-body{min-width:0;padding-left:1.5rem;border-left:1px solid var(--border)}
.markdown .update-body>:first-child{margin-top:0}
.markdown .update-body>:last-child{margin-bottom:0}
@media (max-width:640px){.markdown .update{grid-template-columns:minmax(0,1fr);gap:.5rem}.markdown .update-meta{flex-direction:row;flex-wrap:wrap;align-items:center}.markdown .update-body{padding-left:0;border-left:0}}

/* prompts */
.markdown .prompt{margin:0 0 1.15rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised);overflow:hidden}
.markdown .prompt-header{display:flex;align-items:center;gap:.6rem;padding:.6rem 1rem;border-bottom:1px solid var(--border);background:var(--bg-subtle)}
.markdown .prompt-description{flex:1;min-width:0;font-weight:600}
.markdown .prompt-copy{flex:none;padding:.3rem .75rem;border:1px solid var(--border-strong);border-radius:var(--radius-pill);background:var(--bg-raised);color:var(--text);font:inherit;font-size:.8125rem;cursor:pointer}
.markdown .prompt-copy:hover{border-color:var(--primary)}
.markdown .prompt-body{padding:.75rem 1rem}
.markdown .prompt-body>:last-child{margin-bottom:0}
.markdown .prompt-body :is(pre,pre code){white-space:pre-wrap;overflow-wrap:anywhere}
.markdown .prompt-partial .prompt-body{max-height:16rem;overflow:auto}
.markdown .prompt details>summary{padding:.6rem 1rem;cursor:pointer}

/* API cards (operations whose spec is not at hand, schemas, webhooks) */
.markdown .openapi-card{margin:0 0 1.15rem;padding:.85rem 1.1rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised)}
.markdown .openapi-card .openapi-header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.markdown .openapi-card .openapi-path{overflow-wrap:anywhere}
.markdown .openapi-card :is(.openapi-missing,.openapi-note){margin:.5rem 0 0;font-size:.85rem;color:var(--text-muted)}
.markdown .openapi-card>:last-child{margin-bottom:0}
.markdown .openapi-webhook-label{font-weight:600}
.markdown :is(.openapi-schemas,.openapi-webhook) ul{margin:.4rem 0 0}

/* buttons and icons written in the page */
.markdown a.button{margin:.15rem .35rem .15rem 0;text-decoration:none}
.markdown a.button-primary{color:var(--primary-contrast)}
.markdown a.button-primary:hover{background:color-mix(in oklab,var(--primary) 88%,black)}
.markdown a.button-secondary,.markdown span.button-secondary{background:var(--bg-raised);color:var(--text);border:1px solid var(--border-strong)}
.markdown span.button{display:inline-flex;align-items:center;gap:.4rem;padding:.55rem 1rem;border-radius:var(--radius-pill);border:1px solid var(--border-strong);font-weight:600;font-size:.9rem}
.markdown .gb-icon{display:inline-flex;vertical-align:-.125em}

/* notes (footnotes) as popovers */
.markdown .footnote{line-height:0}
.markdown .annotated{text-decoration:underline dotted;text-underline-offset:.2em}
.markdown .footnote-ref{padding:0 .2em;border:0;border-radius:4px;background:var(--primary-soft);color:var(--primary-text);font:inherit;font-size:.75rem;font-weight:600;cursor:pointer}
.markdown .footnote-popover{max-width:min(26rem,calc(100vw - 2rem));margin:auto;padding:.85rem 1rem;border:1px solid var(--border);border-radius:var(--radius-sm);background:var(--bg-raised);color:var(--text);box-shadow:var(--shadow);font-size:.9rem;line-height:1.55}
.markdown .footnote-popover::backdrop{background:transparent}
.markdown .footnote-paragraph{display:block}
.markdown .footnote-paragraph+.footnote-paragraph{margin-top:.5rem}
`
