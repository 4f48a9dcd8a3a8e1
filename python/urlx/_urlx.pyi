"""Types of the extension module urlx._urlx (use the urlx package)."""

from typing import Iterator, List, Optional, Tuple, Union

VERSION: str

class Options:
    """The options of urlx.find and urlx.scan_file, checked."""

    def __init__(
        self,
        *,
        base: Optional[str],
        format: str,
        abbreviated: bool,
        emails: bool,
        domains: bool,
        refang: bool,
        schemes: Optional[List[str]],
        sources: Optional[List[str]],
        invalid: bool,
        attachments: bool,
        decompress: Optional[bool],
        binary: bool,
        max_url_len: int,
        threads: int,
    ) -> None: ...

def find(
    data: Union[bytes, bytearray, str], name: str, options: Options
) -> Tuple[bytes, List[str]]: ...

class Scan(Iterator[Union[bytes, str]]):
    def __init__(self, path: str, options: Options) -> None: ...
    def __iter__(self) -> "Scan": ...
    def __next__(self) -> Union[bytes, str]: ...
    def close(self) -> None: ...

def resolve(base: str, reference: str) -> str: ...
def normalize(url: str) -> str: ...
