fn main() {
    let t = std::fs::read(std::env::args().nth(1).unwrap()).unwrap();
    let ex = urlx::Extractor::builder().line_numbers(true).build().unwrap();
    for h in ex.find(&t) {
        println!(
            "{}:{} {} [{}] valid={} {:?} alt={:?}",
            h.line(),
            h.column(),
            h.url(),
            h.context(),
            h.is_valid(),
            h.errors(),
            h.alternative()
        );
    }
}
