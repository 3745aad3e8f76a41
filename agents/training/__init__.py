"""Training commands: ``parlour train GAME AGENT ...`` runs ``agents.training.<game>_<agent>.main(argv)``.

Training is seeded, shows progress, writes a learning curve and saves the agent
as plain data with metadata under agents/saved/<game>/.
"""
