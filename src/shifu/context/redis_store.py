"""Hot conversation state in Redis (used when `SHIFU_REDIS_URL` is set).

Each conversation is one hash (`version`, `doc`) with a TTL of the inactivity limit, so an
idle conversation disappears by itself. Writes are Lua compare-and-set scripts: Redis runs a
script atomically, so two processes committing the same version cannot both succeed.
"""

from __future__ import annotations

from datetime import datetime

import redis
from pydantic import TypeAdapter

from shifu.context.state import INACTIVITY_LIMIT
from shifu.context.store import ConversationRecord
from shifu.errors import Expired, VersionConflict

_RECORD = TypeAdapter(ConversationRecord)
_OK = -1
_MISSING = -2

_INSERT = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return tonumber(redis.call('HGET', KEYS[1], 'version'))
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'doc', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return -1
"""

_COMPARE_AND_SET = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then
  return -2
end
if tonumber(current) ~= tonumber(ARGV[1]) then
  return tonumber(current)
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'doc', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return -1
"""


class RedisConversationStore:
    """Conversations as Redis hashes with a sliding 30-minute TTL."""

    def __init__(
        self,
        client: redis.Redis,
        *,
        key_prefix: str = "shifu:conversation:",
        ttl_seconds: int = int(INACTIVITY_LIMIT.total_seconds()),
    ) -> None:
        self._client = client
        self._prefix = key_prefix
        self._ttl = ttl_seconds
        self._insert = client.register_script(_INSERT)
        self._cas = client.register_script(_COMPARE_AND_SET)

    @classmethod
    def from_url(cls, url: str, *, key_prefix: str = "shifu:conversation:") -> RedisConversationStore:
        """A store on the Redis server at `url` (short timeouts: a slow Redis is an outage)."""
        client = redis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0)
        return cls(client, key_prefix=key_prefix)

    @property
    def key_prefix(self) -> str:
        """Prefix of every key this store writes."""
        return self._prefix

    def _key(self, conversation_id: str) -> str:
        return self._prefix + conversation_id

    def get(self, conversation_id: str) -> ConversationRecord | None:
        """Read one conversation; None when unknown or expired."""
        raw = self._client.hget(self._key(conversation_id), "doc")
        if raw is None:
            return None
        return _RECORD.validate_json(raw)

    def insert(self, record: ConversationRecord) -> None:
        """Create a conversation; an existing id is a conflict."""
        result = int(
            self._insert(
                keys=[self._key(record.conversation_id)],
                args=[record.version, _dump(record), self._ttl],
            )
        )
        if result != _OK:
            raise VersionConflict(code="CONVERSATION_EXISTS", current=result)

    def compare_and_set(self, record: ConversationRecord, *, expected_version: int) -> None:
        """Atomically replace the conversation if its version is still `expected_version`."""
        result = int(
            self._cas(
                keys=[self._key(record.conversation_id)],
                args=[expected_version, record.version, _dump(record), self._ttl],
            )
        )
        if result == _MISSING:
            raise Expired("会话已过期，请重新开始。", code="CONVERSATION_EXPIRED")
        if result != _OK:
            raise VersionConflict(current=result)

    def delete_inactive(self, before: datetime) -> int:
        """Nothing to do: Redis expires idle conversations through their TTL."""
        return 0


def _dump(record: ConversationRecord) -> str:
    return _RECORD.dump_json(record, by_alias=True).decode()
