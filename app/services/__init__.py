"""What the routers and commands do, apart from HTTP: matches, live learners, results."""
