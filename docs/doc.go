// Package docs holds the project's documentation (Markdown, and the figures' JSON files). It has
// no code: its tests check that every code block of README.md and docs/ is fenced with what it
// is, and run every shell block as a newcomer pastes it (TestDocsRunAsPasted, through
// scripts/docs-test.sh in make test).
package docs
