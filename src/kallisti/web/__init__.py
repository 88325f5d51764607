"""Play in the browser: `kallisti serve`, its JSON API (docs/web.md) and the page it serves.

`session` drives the engine and has no web imports; `api` is the Starlette app (the `web` extra), `store` keeps
its sessions (saving the ones it closes), `guard` stands in front of it, `server` runs it with uvicorn, `layout`
places the groups of piles on the page.
"""
