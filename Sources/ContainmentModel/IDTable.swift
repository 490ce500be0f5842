/// A key of an ``IDTable``: an id whose hash was computed once, when the id was made.
public protocol TableKey: Hashable, Sendable {
    /// The id's hash, already well mixed (a `String.hashValue`): the table uses its low bits as they are.
    var tableHash: Int { get }
}

/// The state's table of controllers or views by id: the values in a dense array, in the order they were inserted,
/// each at an integer slot that does not move while a command runs, and an open-addressing index of slots by the id's
/// precomputed hash.
///
/// It is what `[Key: Value]` was to the model, without hashing a key per lookup (the key hashed its text once) and
/// with the slot of each change, so that undoing a command puts every value back where it was. Insertion order is
/// creation order for controllers, so the tree order of all of them needs no sort. A value removed through the
/// subscript goes at once (its slot may move others); one removed by ``removeValue(forKey:)`` leaves its slot empty
/// until ``compact()``, which the state calls between commands. The runtime keeps its tables by controller (which host
/// runs each, each host's actors) in it too.
public struct IDTable<Key: TableKey, Value: Sendable>: Sendable {
    /// By slot: each key's hash, the key, and the value (`nil`: removed; its key stays until ``compact()``).
    @usableFromInline var hashes: ContiguousArray<Int> = []
    @usableFromInline var slotKeys: ContiguousArray<Key> = []
    @usableFromInline var slotValues: ContiguousArray<Value?> = []
    /// Slots by bucket: ``empty``, ``removed`` or the slot of a value the table holds.
    @usableFromInline var buckets: ContiguousArray<Int32> = []
    /// Buckets that are not ``empty`` (the probe sequences' length bound).
    @usableFromInline var usedBuckets = 0
    @usableFromInline var storedCount = 0
    @inlinable public var count: Int { storedCount }

    @usableFromInline static var empty: Int32 { -1 }
    @usableFromInline static var removed: Int32 { -2 }

    @inlinable public init() {}

    @inlinable public var isEmpty: Bool { count == 0 }

    /// The bucket holding `key`'s slot, or the `empty` bucket that ends its probe sequence.
    @inlinable @inline(__always)
    func bucket(of key: Key) -> (bucket: Int, slot: Int?) {
        let hash = key.tableHash
        let mask = buckets.count - 1
        var bucket = hash & mask
        while true {
            let slot = Int(buckets[bucket])
            if slot == Int(Self.empty) { return (bucket, nil) }
            if slot >= 0, hashes[slot] == hash, slotKeys[slot] == key { return (bucket, slot) }
            bucket = (bucket + 1) & mask
        }
    }

    /// The slot of `key`, if it is in the table.
    @inlinable @inline(__always)
    func slot(of key: Key) -> Int? {
        guard count > 0 else { return nil }
        return bucket(of: key).slot
    }

    @inlinable public subscript(key: Key) -> Value? {
        get { slot(of: key).flatMap { slotValues[$0] } }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
                compact()
            }
        }
    }

    /// The value at a slot ``slot(of:)`` gave (it must hold one).
    @inlinable func value(at slot: Int) -> Value {
        // Safe: callers pass a slot this table just gave for a key it holds.
        slotValues[slot]!
    }

    /// Changes the value at a slot ``slot(of:)`` gave, in place.
    @inlinable mutating func update(at slot: Int, _ body: (inout Value) -> Void) {
        // Safe: callers pass a slot this table just gave for a key it holds.
        body(&slotValues[slot]!)
    }

    /// Sets the value of `key`: in its slot when it is there, in a new last slot when not. Returns the value replaced
    /// and the slot.
    @inlinable @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> (old: Value?, slot: Int) {
        if let slot = slot(of: key) {
            let old = slotValues[slot]
            slotValues[slot] = value
            return (old, slot)
        }
        hashes.append(key.tableHash)
        slotKeys.append(key)
        slotValues.append(value)
        let slot = slotValues.count - 1
        index(key, at: slot)
        storedCount += 1
        return (nil, slot)
    }

    /// Removes `key`, leaving its slot empty. Returns the value and the slot it had.
    @inlinable @discardableResult
    mutating func removeValue(forKey key: Key) -> (old: Value, slot: Int)? {
        guard count > 0 else { return nil }
        let (bucket, found) = bucket(of: key)
        // Safe: a bucket's slot always holds a value (removal empties the bucket too).
        guard let slot = found, let old = slotValues[slot] else { return nil }
        buckets[bucket] = Self.removed
        slotValues[slot] = nil
        storedCount -= 1
        return (old, slot)
    }

    /// Undoes a change: `key` holds `value` again at `slot` (where it was), or is not in the table (`nil`).
    @inlinable mutating func restore(_ value: Value?, forKey key: Key, at slot: Int) {
        if let value {
            if slotValues[slot] != nil {
                slotValues[slot] = value
            } else {
                slotValues[slot] = value
                index(key, at: slot)
                storedCount += 1
            }
        } else if slotValues[slot] != nil {
            removeValue(forKey: key)
            // An insertion undone (a create the command's rejection takes back): its slot was the last.
            if slot == slotValues.count - 1 {
                hashes.removeLast()
                slotKeys.removeLast()
                slotValues.removeLast()
            }
        }
    }

    /// Records `key`'s slot in the index (its key and value are already in their slot): when the index would pass
    /// half full, it is rebuilt larger from the slots, that one with the others.
    @inlinable mutating func index(_ key: Key, at slot: Int) {
        if (usedBuckets + 1) * 2 > buckets.count {
            rebuildIndex(minimumCapacity: count + 1)
            return
        }
        let mask = buckets.count - 1
        var bucket = hashes[slot] & mask
        while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
        if buckets[bucket] == Self.empty { usedBuckets += 1 }
        buckets[bucket] = Int32(slot)
    }

    @usableFromInline mutating func rebuildIndex(minimumCapacity: Int) {
        var size = 16
        while size < minimumCapacity * 2 { size <<= 1 }
        buckets = ContiguousArray(repeating: Self.empty, count: size)
        usedBuckets = 0
        let mask = size - 1
        for slot in slotValues.indices where slotValues[slot] != nil {
            var bucket = hashes[slot] & mask
            while buckets[bucket] != Self.empty { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(slot)
            usedBuckets += 1
        }
    }

    /// Drops the empty slots when they are many (more than the values, past a few), keeping the values' order.
    /// Slots move, so only between commands.
    @inlinable mutating func compact() {
        guard slotValues.count - count > Swift.max(count, 32) else { return }
        let live = slotValues.indices.filter { slotValues[$0] != nil }
        hashes = ContiguousArray(live.map { hashes[$0] })
        slotKeys = ContiguousArray(live.map { slotKeys[$0] })
        slotValues = ContiguousArray(live.map { slotValues[$0] })
        rebuildIndex(minimumCapacity: count)
    }

    @inlinable public mutating func reserveCapacity(_ capacity: Int) {
        hashes.reserveCapacity(capacity)
        slotKeys.reserveCapacity(capacity)
        slotValues.reserveCapacity(capacity)
        if capacity * 2 > buckets.count { rebuildIndex(minimumCapacity: capacity) }
    }

    /// The values, in slot order.
    @inlinable public var values: Values { Values(slotValues: slotValues) }
    /// The keys, in slot order.
    @inlinable public var keys: [Key] { slotValues.indices.compactMap { slotValues[$0] == nil ? nil : slotKeys[$0] } }

    /// The values of a table, in slot order.
    public struct Values: Sequence {
        @usableFromInline let slotValues: ContiguousArray<Value?>

        @inlinable init(slotValues: ContiguousArray<Value?>) { self.slotValues = slotValues }

        @inlinable public func makeIterator() -> some IteratorProtocol<Value> {
            slotValues.lazy.compactMap { $0 }.makeIterator()
        }
    }
}

extension IDTable: Sequence {
    @inlinable public func makeIterator() -> some IteratorProtocol<(key: Key, value: Value)> {
        zip(slotKeys, slotValues).lazy.compactMap { key, value in value.map { (key: key, value: $0) } }.makeIterator()
    }

    @inlinable public var underestimatedCount: Int { count }
}

extension IDTable: Equatable where Value: Equatable {
    /// The same keys with equal values, whatever their slots.
    @inlinable public static func == (lhs: IDTable, rhs: IDTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.allSatisfy { rhs[$0.key] == $0.value }
    }
}

extension IDTable: ExpressibleByDictionaryLiteral {
    @inlinable public init(dictionaryLiteral elements: (Key, Value)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }
}
