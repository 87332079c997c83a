import ReconstructionCore

extension CheckpointWriter {
    mutating func write(_ transform: RigidTransform) {
        for value in transform.rotation.m { write(value) }
        write(transform.translation.x)
        write(transform.translation.y)
        write(transform.translation.z)
    }

    mutating func write(optional transform: RigidTransform?) {
        write(transform != nil)
        if let transform { write(transform) }
    }
}

extension CheckpointReader {
    mutating func readRigidTransform() throws -> RigidTransform {
        var m: [Double] = []
        for _ in 0..<9 { m.append(try readDouble()) }
        let t = Vector3(try readDouble(), try readDouble(), try readDouble())
        return RigidTransform(rotation: Matrix3(rowMajor: m), translation: t)
    }

    mutating func readOptionalRigidTransform() throws -> RigidTransform? {
        try readBool() ? try readRigidTransform() : nil
    }
}
