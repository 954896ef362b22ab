"""The browser client: static HTML, CSS and ES modules served by the app (no build step).

It renders the view JSON the server sends and sends actions back; it holds
no game rules (the legal actions come from the server)."""
