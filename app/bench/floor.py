"""The floor for ``parlour bench server --peers``: a bare FastAPI app with one POST that
validates a small body, served by the same uvicorn the same way as Parlour
(``uvicorn app.bench.floor:app``). Nothing else lives here."""
from __future__ import annotations

from fastapi import FastAPI
from pydantic import BaseModel, Field

app = FastAPI()


class Move(BaseModel):
    action: str = Field(max_length=128)
    ply: int | None = None


@app.post("/moves")
def move(body: Move) -> dict:
    return {"action": body.action, "ply": body.ply}
