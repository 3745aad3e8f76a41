"""The answers of the API, as pydantic models: the routes declare them, so ``/openapi.json``
describes every answer. A route that writes its answer itself (``hot_json``) declares its model
for the schema only; ``tests/api/test_answers.py`` holds those answers to it."""
